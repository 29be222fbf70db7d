/** Stylesheets are bundled by esbuild (build.mjs); importing one has no value. */
declare module '*.css';
