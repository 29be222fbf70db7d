/** `locales/<lng>/common.json?sign-in`: the sign-in page's part of a language (build.mjs, sign-in-keys.json). */
declare module '*.json?sign-in' {
  const resources: Record<string, unknown>;
  export default resources;
}
