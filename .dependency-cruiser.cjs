// Layer and feature boundaries (docs/architecture.md, "Tooling and dependencies").
//
// `npm run lint:boundaries` cruises src/ from the repository root. Every path below is relative to
// the directory depcruise runs in (`^src/...`), so tests/unit/boundaries.test.ts runs the same file
// with its cwd in a fixture tree (tests/boundaries/{wrong,right}) and checks that each rule fires.
//
// Parser: TypeScript 7's `typescript` package has no JavaScript compiler API, so dependency-cruiser's
// tsc extractor is unavailable; it parses with @swc/core (`parser: 'swc'`). The swc extractor counts
// every `import`, `import type`, `export ... from` and `import()`: a type-only import crosses a
// boundary as much as a value import does. dependency-cruiser 17 gives swc no `tsx` flag (a TODO in
// its source), so .tsx files would fail to parse; the wrapper below sets it for them.
const swc = require('@swc/core');

if (!swc.parseFileSync.tsxAware) {
  const parseFileSync = swc.parseFileSync;
  const tsxAware = (file, options) => parseFileSync(file, file.endsWith('.tsx') ? { ...options, tsx: true } : options);
  tsxAware.tsxAware = true;
  swc.parseFileSync = tsxAware;
}

/** The client entry files of src/app: the only app files that import the composition root. */
const APP_ENTRIES = '^src/app/(start\\.tsx|sign-in-start\\.tsx|ssr/render-first-screen\\.tsx)$';
/** The server entry and CLI files: the only src/server files that import the composition root. */
const SERVER_ENTRIES = '^src/server/(.*-cli\\.ts|main\\.ts)$';
/** A feature's client side: its client/ folder and its client face. */
const FEATURE_CLIENT = '^src/features/[^/]+/(client/|client\\.ts$)';
/** A feature's server side: its server/ folder and its server face. */
const FEATURE_SERVER = '^src/features/[^/]+/(server/|server\\.ts$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'shared-imports-no-layer',
      severity: 'error',
      comment: 'src/shared runs on both sides and depends on no other layer (features and extensions: see the *-only-from-registry rules).',
      from: { path: '^src/shared/' },
      to: { path: '^src/(engine|app|server|registry)/' },
    },
    {
      name: 'engine-imports-only-shared',
      severity: 'error',
      comment: 'The generic client engine imports src/shared, itself and npm packages only.',
      from: { path: '^src/engine/' },
      to: { path: '^src/(app|server|registry)/' },
    },
    {
      name: 'app-not-to-server',
      severity: 'error',
      comment: 'The client shell imports src/shared, src/engine and itself; never the server.',
      from: { path: '^src/app/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'app-registry-only-from-entries',
      severity: 'error',
      comment: `Only the client entry files (${APP_ENTRIES}) import the composition root.`,
      from: { path: '^src/app/', pathNot: APP_ENTRIES },
      to: { path: '^src/registry/' },
    },
    {
      name: 'server-not-to-client',
      severity: 'error',
      comment: 'The generic server imports src/shared and itself; never the engine or the app.',
      from: { path: '^src/server/' },
      to: { path: '^src/(engine|app)/' },
    },
    {
      name: 'server-registry-only-from-entries',
      severity: 'error',
      comment: `Only the server entry and CLI files (${SERVER_ENTRIES}) import the composition root.`,
      from: { path: '^src/server/', pathNot: SERVER_ENTRIES },
      to: { path: '^src/registry/' },
    },
    {
      name: 'feature-engine-only-through-entry',
      severity: 'error',
      comment: 'A feature imports the engine through src/engine/index.ts only, never a deep path.',
      from: { path: '^src/features/' },
      to: { path: '^src/engine/', pathNot: '^src/engine/index\\.ts$' },
    },
    {
      name: 'feature-server-only-through-entry',
      severity: 'error',
      comment: 'A feature imports the generic server through src/server/index.ts only, never a deep path.',
      from: { path: '^src/features/' },
      to: { path: '^src/server/', pathNot: '^src/server/index\\.ts$' },
    },
    {
      name: 'feature-not-to-app-or-registry',
      severity: 'error',
      comment: 'A feature never imports the client shell or the composition root (extensions: see extensions-only-from-registry).',
      from: { path: '^src/features/' },
      to: { path: '^src/(app|registry)/' },
    },
    {
      name: 'feature-other-feature-only-through-faces',
      severity: 'error',
      comment: 'Another feature is imported through src/features/Y/(index|server|client).ts only.',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/', pathNot: ['^src/features/$1/', '^src/features/[^/]+/(index|server|client)\\.ts$'] },
    },
    {
      name: 'feature-client-not-to-server',
      severity: 'error',
      comment: "A feature's client side never imports server code: src/server or any feature's server side.",
      from: { path: FEATURE_CLIENT },
      to: { path: ['^src/server/', FEATURE_SERVER] },
    },
    {
      name: 'feature-server-not-to-client',
      severity: 'error',
      comment: "A feature's server side never imports client code: src/engine, src/app or any feature's client side.",
      from: { path: FEATURE_SERVER },
      to: { path: ['^src/(engine|app)/', FEATURE_CLIENT] },
    },
    {
      name: 'feature-contract-is-neutral',
      severity: 'error',
      comment: "A feature's shared contract (index.ts, shared/) runs on both sides: no engine, app, server or any feature's client or server side.",
      from: { path: '^src/features/[^/]+/(shared/|index\\.ts$)' },
      to: { path: ['^src/(engine|app|server)/', FEATURE_CLIENT, FEATURE_SERVER] },
    },
    {
      name: 'extensions-only-shared-and-engine-entry',
      severity: 'error',
      comment: 'Extensions import src/shared (server hook types included) and src/engine/index.ts (client cells) only.',
      from: { path: '^src/extensions/' },
      to: { path: '^src/(engine|app|server|registry)/', pathNot: '^src/engine/index\\.ts$' },
    },
    {
      name: 'features-only-from-registry',
      severity: 'error',
      comment: 'Only the composition root (src/registry) imports features; features import one another under the feature rules.',
      from: { path: '^src/', pathNot: '^src/(features|registry)/' },
      to: { path: '^src/features/' },
    },
    {
      name: 'extensions-only-from-registry',
      severity: 'error',
      comment: 'Only the composition root (src/registry) imports src/extensions.',
      from: { path: '^src/', pathNot: '^src/(extensions|registry)/' },
      to: { path: '^src/extensions/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere in src (type-only imports included).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'A relative import resolves to a file.',
      from: { path: '^src/' },
      to: { couldNotResolve: true, path: '^\\.{1,2}/' },
    },
  ],
  options: {
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    // Packages that publish only an `exports` map (@rjsf/*, @tanstack/react-table, csv-stringify/sync,
    // @radix-ui/themes/components/*) resolve the way Node and esbuild resolve them.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
