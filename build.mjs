// Builds the server bundle and the SPA with esbuild.
//   node build.mjs             build once
//   node build.mjs --if-needed build only when a source is newer than the last build
//   node build.mjs --watch     rebuild on change and restart the server (npm run dev)
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import * as esbuild from 'esbuild';
import { breakpointsInSource, namesInScript, subsetCss } from './scripts/css-subset.mjs';

const root = path.dirname(new URL(import.meta.url).pathname);
const dist = path.join(root, 'dist');
const publicDir = path.join(dist, 'public');
const stamp = path.join(dist, '.build-stamp');
const args = new Set(process.argv.slice(2));

/** Server-side programs: the output name and its entry, built when the entry exists. */
const serverEntries = {
  main: 'src/registry/entries/main.ts',
  serve: 'src/registry/entries/serve.ts',
  seed: 'src/registry/entries/seed.ts',
  backup: 'src/registry/entries/backup.ts',
  restore: 'src/registry/entries/restore.ts',
  'audit-verify': 'src/registry/entries/audit-verify.ts',
  bench: 'tests/bench/run.ts',
  'first-screen-worker': 'src/server/first-screen/render-worker.ts',
};

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function isUpToDate() {
  if (!fs.existsSync(stamp) || !fs.existsSync(path.join(publicDir, 'index.html'))) return false;
  const built = fs.statSync(stamp).mtimeMs;
  const inputs = ['src', 'locales', 'public', 'tests/bench', 'entities', 'scripts', 'package.json', 'package-lock.json', 'build.mjs'];
  return inputs.every((input) => newestMtime(path.join(root, input)) <= built);
}

function serverOptions() {
  const entryPoints = Object.fromEntries(Object.entries(serverEntries).filter(([, entry]) => fs.existsSync(path.join(root, entry))));
  return {
    absWorkingDir: root,
    entryPoints,
    outdir: path.join(dist, 'server'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    plugins: [serveAtRunTime],
    sourcemap: true,
    logLevel: 'warning',
  };
}

/**
 * The main program (src/registry/entries/main.ts) imports the server (`./serve.js`) as the file
 * built beside it, at run time: bundled in, its packages' imports would load before the main
 * program's first line (an ES module's imports come first), which starts the first-screen thread.
 */
const serveAtRunTime = {
  name: 'serve-at-run-time',
  setup(build) {
    const launcher = path.join(root, 'src/registry/entries/main.ts');
    build.onResolve({ filter: /^\.\/serve\.js$/ }, (args) => (args.importer === launcher ? { path: './serve.js', external: true } : undefined));
  },
};

/**
 * Radix Themes imports every primitive through the `radix-ui` barrels, so any one component pulls
 * all primitives any page uses into the first chunk. This points each of its imports at the
 * primitive's own package (the barrels only re-export them), keeping the sign-in page small.
 */
function radixImportMap(file) {
  const source = fs.readFileSync(path.join(root, 'node_modules/radix-ui/dist', file), 'utf8');
  const map = new Map();
  for (const [, name, pkg] of source.matchAll(/import \* as (\w+) from "([^"]+)"/g)) map.set(name, { pkg, namespace: true });
  for (const [, names, pkg] of source.matchAll(/import \{([^}]+)\} from "([^"]+)"/g)) {
    for (const name of names.split(',').map((part) => part.trim())) if (/^\w+$/.test(name)) map.set(name, { pkg, namespace: false });
  }
  return map;
}

/**
 * `@radix-ui/themes` is one barrel re-exporting every component: esbuild places a module by the
 * entry points whose import graph reaches it, used or not, so through the barrel the radio group,
 * switch, tabs and dialog (every component some screen uses) were "reached" by the signed-in shell
 * and sat in a chunk the first list loaded. The component files' names come from the barrel itself
 * (components/index.js: `import{Flex as F}from"./flex.js"`, `import*as v from"./dialog.js"`, then
 * `export{F as Flex,v as Dialog}`).
 */
let themesComponentMap;
function themesComponents() {
  if (themesComponentMap) return themesComponentMap;
  const source = fs.readFileSync(path.join(root, 'node_modules/@radix-ui/themes/dist/esm/components/index.js'), 'utf8');
  const locals = new Map();
  for (const [, names, file] of source.matchAll(/import\{([^}]+)\}from"\.\/([\w-]+)\.js"/g)) {
    for (const part of names.split(',')) {
      const [name, alias = name] = part.trim().split(/\s+as\s+/);
      locals.set(alias, { file, name });
    }
  }
  for (const [, alias, file] of source.matchAll(/import\*as ([\w$]+) from"\.\/([\w-]+)\.js"/g)) locals.set(alias, { file, name: '*' });
  themesComponentMap = new Map();
  const exported = /export\{([^}]+)\}/.exec(source)?.[1] ?? '';
  for (const part of exported.split(',')) {
    const [local, name = local] = part.trim().split(/\s+as\s+/);
    if (locals.has(local)) themesComponentMap.set(name, locals.get(local));
  }
  return themesComponentMap;
}

/**
 * The Radix Themes components of the signed-in frame and the list screen (the first screen most
 * sessions open). Imported through one module (`radix-kit`), they share one chunk: one import each
 * would make some thirty small chunks of the first load (the gzip of many small files is larger
 * than of one: 278 KB against 266 KB). The rest (dialog, tabs, radio group, ...) load with the
 * screens that use them.
 */
const THEMES_KIT = [
  'Avatar',
  'Badge',
  'Box',
  'Button',
  'Callout',
  'Card',
  'Checkbox',
  'DropdownMenu',
  'Flex',
  'Grid',
  'Heading',
  'IconButton',
  'Link',
  'Popover',
  'ScrollArea',
  'Select',
  'Skeleton',
  'Spinner',
  'Table',
  'Text',
  'TextField',
  'Theme',
  'Tooltip',
  'VisuallyHidden',
];

/** The `radix-kit` module: re-exports {@link THEMES_KIT} from their component files. */
function themesKitSource() {
  const map = themesComponents();
  return THEMES_KIT.map((name) => {
    const entry = map.get(name);
    if (!entry) throw new Error(`build.mjs THEMES_KIT: @radix-ui/themes exports no ${name}.`);
    const from = `'@radix-ui/themes/components/${entry.file}'`;
    return entry.name === '*' ? `export * as ${name} from ${from};` : `export { ${entry.name} as ${name} } from ${from};`;
  }).join('\n');
}

/** Rewrites a source's `import { A, B as C } from '@radix-ui/themes'` into imports of `radix-kit` and of each other component's file. */
function unbarrelThemesImports(text) {
  if (!text.includes("from '@radix-ui/themes';")) return text;
  const map = themesComponents();
  return text.replace(/import \{([^}]*)\} from '@radix-ui\/themes';/g, (whole, names) => {
    const parts = names
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    const types = parts.filter((part) => part.startsWith('type '));
    const values = parts.filter((part) => !part.startsWith('type ')).map((part) => part.split(/\s+as\s+/));
    if (values.some(([name]) => !map.has(name))) return whole;
    const kit = values.filter(([name]) => THEMES_KIT.includes(name));
    const lines = values
      .filter(([name]) => !THEMES_KIT.includes(name))
      .map(([name, alias = name]) => {
        const { file, name: inner } = map.get(name);
        return inner === '*'
          ? `import * as ${alias} from '@radix-ui/themes/components/${file}';`
          : `import { ${inner} as ${alias} } from '@radix-ui/themes/components/${file}';`;
      });
    if (kit.length) lines.push(`import { ${kit.map(([name, alias = name]) => (alias === name ? name : `${name} as ${alias}`)).join(', ')} } from 'radix-kit';`);
    if (types.length) lines.push(`import { ${types.join(', ')} } from '@radix-ui/themes';`);
    return lines.join(' ');
  });
}

/** The modules the features' client faces load as `lazy` (src/features/<name>/client/registrations.ts). */
const FEATURE_LAZY_REGISTRATIONS = fs
  .readdirSync(path.join(root, 'src/features'))
  .map((feature) => `src/features/${feature}/client/registrations.ts`)
  .filter((file) => fs.existsSync(path.join(root, file)));

/**
 * The screens of a signed-in tab, each its own lazily loaded chunk (src/app/router.tsx, the
 * extension screens, the entity engine's screens), and the two roots every one of them is shown
 * with: the signed-in frame and the entity engine (the boot script preloads both for any signed-in
 * page). esbuild puts each module in a chunk by the set of entry points reaching it, so the modules
 * of the frame and the list (each reached by a different handful of screens) made some forty small
 * chunks, about sixty requests before a list's first row over six connections. Each screen here
 * imports both roots (for their side effects, which are none but loading): every module of the
 * frame and the list is then reached by the same screens and they share a few chunks.
 */
const SIGNED_IN_SCREENS = [
  'src/app/layout/authenticated-layout.tsx',
  'src/engine/routes/entity-routes.tsx',
  'src/app/pages/dashboard-page.tsx',
  'src/app/pages/sandbox-page.tsx',
  'src/app/pages/profile-page.tsx',
  'src/app/pages/faq-page.tsx',
  'src/app/pages/helpdesk-page.tsx',
  'src/app/pages/fallback-page.tsx',
  'src/engine/form/entity-create-screen.tsx',
  'src/engine/form/entity-edit-screen.tsx',
  'src/engine/detail/entity-detail.tsx',
  'src/features/accounts/client/accounts-page.tsx',
  'src/features/accounts/client/two-factor-card.tsx',
  'src/features/accounts/client/portal-invites-screen.tsx',
  'src/features/dataio/client/import-screen.tsx',
  'src/features/history/client/audit-page.tsx',
  'src/features/history/client/trash-page.tsx',
  'src/features/judging/client/applicant-decision-screen.tsx',
  'src/features/judging/client/dashboard-panels.tsx',
  'src/features/judging/client/exam-judging-screen.tsx',
  'src/features/judging/client/jury-portal-screen.tsx',
  'src/features/notifications/client/notifications-popover.tsx',
  'src/features/results/client/contest-judging-screen.tsx',
  'src/features/results/client/results-screen.tsx',
  'src/features/results/client/moderation-screen.tsx',
  // What the features register as `lazy` (their cells, widgets, row actions), which every signed-in screen waits for.
  ...FEATURE_LAZY_REGISTRATIONS,
];
const SIGNED_IN_FRAME = ['src/app/layout/authenticated-layout.tsx', 'src/engine/routes/entity-routes.tsx'];

/** `text` of the file at `file`, with the imports of the signed-in frame's roots when it is one of {@link SIGNED_IN_SCREENS}. */
function withSignedInFrame(file, text) {
  const relative = path.relative(root, file).split(path.sep).join('/');
  if (!SIGNED_IN_SCREENS.includes(relative)) return text;
  const imports = SIGNED_IN_FRAME.filter((frame) => frame !== relative).map((frame) => `import ${JSON.stringify(path.join(root, frame))};`);
  return `${imports.join(' ')}\n${text}`;
}

const unbarrelRadix = {
  name: 'unbarrel-radix',
  setup(build) {
    const maps = {};
    build.onLoad({ filter: /[\\/]@radix-ui[\\/]themes[\\/]dist[\\/]esm[\\/].*\.js$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      const contents = text.replace(/import\{([^}]*)\}from"(radix-ui(?:\/internal)?)"/g, (whole, names, barrel) => {
        maps[barrel] ??= radixImportMap(barrel === 'radix-ui' ? 'index.mjs' : 'internal.mjs');
        const parts = names.split(',').map((part) => part.trim().split(/\s+as\s+/));
        if (parts.some(([name]) => !maps[barrel].has(name))) return whole;
        return parts
          .map(([name, alias = name]) => {
            const { pkg, namespace } = maps[barrel].get(name);
            return namespace ? `import*as ${alias} from"${pkg}";` : `import{${name} as ${alias}}from"${pkg}";`;
          })
          .join('');
      });
      return { contents, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

/**
 * `@radix-ui/react-icons` is one module of 318 icons: every icon any screen uses landed in one
 * chunk (70 KB) that the first screen loaded whole. This gives each icon a module of its own
 * (`radix-icon:<Name>`, cut from the package's file), so a chunk carries the icons its screens show.
 */
const splitRadixIcons = {
  name: 'split-radix-icons',
  setup(build) {
    let icons;
    const iconSource = () => {
      if (icons) return icons;
      const file = path.join(root, 'node_modules/@radix-ui/react-icons/dist/react-icons.esm.js');
      const text = fs.readFileSync(file, 'utf8');
      icons = new Map();
      // Each icon is `var _excluded$N = ["color"];\nvar <Name> = /*#__PURE__*/forwardRef(...);`, up to the next one.
      const end = text.lastIndexOf('\nexport {');
      for (const piece of text
        .slice(0, end)
        .split(/\n(?=var _excluded(?:\$[\w$]+)? = )/)
        .slice(1)) {
        const match = /^var (_excluded(?:\$[\w$]+)?) = \["color"\];\nvar (\w+) = (\/\*#__PURE__\*\/forwardRef\([\s\S]*\));\s*$/.exec(piece);
        if (match) icons.set(match[2], match[3].replaceAll(match[1], '_excluded'));
      }
      return icons;
    };
    build.onResolve({ filter: /^radix-kit$/ }, () => ({ path: 'radix-kit', namespace: 'radix-kit' }));
    build.onLoad({ filter: /.*/, namespace: 'radix-kit' }, () => ({ contents: themesKitSource(), loader: 'js', resolveDir: root }));
    build.onResolve({ filter: /^radix-icon:/ }, (args) => ({ path: args.path.slice('radix-icon:'.length), namespace: 'radix-icon' }));
    build.onLoad({ filter: /.*/, namespace: 'radix-icon' }, (args) => {
      const resolveDir = path.join(root, 'node_modules/@radix-ui/react-icons');
      if (args.path === 'helpers') {
        const text = fs.readFileSync(path.join(resolveDir, 'dist/react-icons.esm.js'), 'utf8');
        const helper = /function _objectWithoutPropertiesLoose[\s\S]*?\n\}\n/.exec(text)[0];
        return { contents: `${helper}export const _excluded = ["color"];\nexport { _objectWithoutPropertiesLoose };\n`, loader: 'js', resolveDir };
      }
      const body = iconSource().get(args.path);
      if (!body) return { errors: [{ text: `@radix-ui/react-icons has no ${args.path}` }] };
      return {
        contents: `import { forwardRef, createElement } from 'react';\nimport { _objectWithoutPropertiesLoose, _excluded } from 'radix-icon:helpers';\nexport const ${args.path} = /*#__PURE__*/${body.replace('/*#__PURE__*/', '')};\n`,
        loader: 'js',
        resolveDir,
      };
    });
    // The console's own files: `import { A, B as C } from '@radix-ui/react-icons'` → one import per icon;
    // `import { Flex, Dialog } from '@radix-ui/themes'` → `radix-kit` or the component's file (unbarrelThemesImports).
    build.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      const text = withSignedInFrame(args.path, unbarrelThemesImports(source));
      if (!text.includes("'@radix-ui/react-icons'")) return text === source ? undefined : { contents: text, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
      const contents = text.replace(/import \{([^}]*)\} from '@radix-ui\/react-icons';/g, (whole, names) => {
        const parts = names
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean);
        if (parts.some((part) => part.startsWith('type '))) return whole;
        return parts.map((part) => `import { ${part} } from 'radix-icon:${part.split(/\s+as\s+/)[0]}';`).join(' ');
      });
      return { contents, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
    });
  },
};

/**
 * `locales/<lng>/common.json?sign-in` (src/app/i18n.ts): only the keys src/app/sign-in-keys.json
 * lists, so the sign-in page's first load carries its own part of the `common` namespace; the app
 * loads the whole namespace before any other screen renders. A listed key missing in English fails the build.
 */
const signInLocale = {
  name: 'sign-in-locale',
  setup(build) {
    const keysFile = path.join(root, 'src/app/sign-in-keys.json');
    build.onResolve({ filter: /\.json\?sign-in$/ }, (args) => ({
      path: path.resolve(args.resolveDir, args.path.slice(0, -'?sign-in'.length)),
      suffix: '?sign-in',
    }));
    build.onLoad({ filter: /\.json$/ }, async (args) => {
      if (args.suffix !== '?sign-in') return undefined;
      const { keys } = JSON.parse(await fs.promises.readFile(keysFile, 'utf8'));
      const read = async (file) => JSON.parse(await fs.promises.readFile(file, 'utf8'));
      const [language, english] = await Promise.all([read(args.path), read(path.join(args.path, '../../en/common.json'))]);
      const part = {};
      for (const key of keys) {
        const steps = key.split('.');
        const lookup = (tree) => steps.reduce((node, step) => (node && typeof node === 'object' ? node[step] : undefined), tree);
        if (lookup(english) === undefined) throw new Error(`src/app/sign-in-keys.json: "${key}" is not in locales/en/common.json.`);
        const value = lookup(language);
        if (value === undefined) continue; // i18next falls back to English
        let node = part;
        for (const step of steps.slice(0, -1)) node = node[step] ??= {};
        node[steps.at(-1)] = value;
      }
      return { contents: JSON.stringify(part), loader: 'json', watchFiles: [keysFile, path.join(args.path, '../../en/common.json')] };
    });
  },
};

function clientOptions() {
  return {
    plugins: [unbarrelRadix, signInLocale, splitRadixIcons],
    absWorkingDir: root,
    entryPoints: { main: 'src/app/main.tsx' },
    outdir: path.join(publicDir, 'assets'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome115', 'firefox115', 'safari16'],
    minify: true,
    sourcemap: 'linked',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    assetNames: 'media/[name]-[hash]',
    loader: { '.png': 'file', '.jpg': 'file', '.svg': 'file', '.webp': 'file', '.woff2': 'file', '.woff': 'file' },
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  };
}

/**
 * The boot script (src/app/boot.ts) as one self-contained file, which the page carries inline: it
 * must run at once, not after chunks shared with the app (it repeats the few small modules it needs).
 */
function bootOptions() {
  return {
    ...clientOptions(),
    plugins: [],
    entryPoints: { boot: 'src/app/boot.ts' },
    splitting: false,
    // A classic script (written into the page): no module syntax, its names kept to itself.
    format: 'iife',
  };
}

/**
 * The first-screen render (src/app/ssr/render-first-screen.tsx): the browser's own screens and
 * their modules, bundled for the server, which renders a signed-in list screen's HTML with them
 * (`GET /api/meta/first-screen`). The same plugins as the client (the same markup); the browser's
 * token store (src/app/auth/session.ts) is swapped for one over memory, stylesheets are left out.
 */
function renderOptions() {
  const serverSession = {
    name: 'server-session',
    setup(build) {
      build.onResolve({ filter: /[\\/]session\.js$/ }, (args) => {
        const target = path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
        return target === path.join(root, 'src/app/auth/session.ts') ? { path: path.join(root, 'src/app/ssr/session.server.ts') } : undefined;
      });
    },
  };
  return {
    plugins: [serverSession, unbarrelRadix, signInLocale, splitRadixIcons],
    absWorkingDir: root,
    entryPoints: { 'first-screen-render': 'src/app/ssr/render-first-screen.tsx' },
    outdir: path.join(dist, 'server'),
    bundle: true,
    // The screens it never renders stay in chunks of their own, which the thread never loads: its
    // memory holds the layout and the list screen only.
    splitting: true,
    chunkNames: 'first-screen/[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // CommonJS packages in an ES module bundle still call require() for Node's own modules.
    banner: { js: "import { createRequire as __acCreateRequire } from 'node:module'; const require = __acCreateRequire(import.meta.url);" },
    loader: { '.css': 'empty', '.png': 'empty', '.jpg': 'empty', '.svg': 'empty', '.webp': 'empty', '.woff2': 'empty', '.woff': 'empty' },
    define: { 'process.env.NODE_ENV': '"production"' },
    // Minified: the thread keeps its code in memory for the server's life (6 MB of source as written).
    minify: true,
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
  };
}

/** The boot script's output file (from its build's metafile). */
function bootOutput(metafile) {
  const found = Object.keys(metafile.outputs).find((file) => file.endsWith('.js'));
  if (!found) throw new Error('The boot script build produced no file.');
  return found;
}

/**
 * Splits the entry's stylesheet (scripts/css-subset.mjs): the rules of Radix Themes components no
 * script of this build names are dropped, and the colour scales neither the scripts nor the
 * descriptors in entities/ name move to a second stylesheet, which the boot script adds once the
 * page is idle (the preload manifest's `styles`). Each file is named by the
 * hash of what it now holds (assets are cached for a year).
 */
function splitStylesheet(metafile) {
  const outputs = metafile.outputs;
  const entry = Object.entries(outputs).find(([file, out]) => out.entryPoint === 'src/app/main.tsx' && file.endsWith('.js'));
  const cssFile = entry?.[1].cssBundle;
  if (!cssFile) return undefined;
  // Component classes: from every script of the build (Radix Themes' own included). Colours: from
  // the console's own sources and descriptors (Radix Themes' scripts list every colour).
  const classes = new Set();
  for (const file of Object.keys(outputs).filter((f) => f.endsWith('.js')))
    namesInScript(fs.readFileSync(path.join(root, file), 'utf8'), { classes, colors: new Set() });
  const colors = new Set(['gray']);
  const sources = [...filesUnder(path.join(root, 'src')), ...filesUnder(path.join(root, 'entities'))].filter((f) => /\.(tsx?|json|css)$/.test(f));
  const breakpoints = new Set();
  for (const file of sources) {
    const text = fs.readFileSync(file, 'utf8');
    namesInScript(text, { classes: new Set(), colors });
    if (/\.tsx?$/.test(file)) breakpointsInSource(text, breakpoints);
  }
  const names = { classes, colors, breakpoints };
  const css = fs.readFileSync(path.join(root, cssFile), 'utf8').replace(/\/\*# sourceMappingURL=.*?\*\/\s*$/, '');
  const { main, rest, stats } = subsetCss(css, names.classes, names.colors, names.breakpoints);
  if (args.has('--verbose')) {
    console.log(
      `Stylesheet: ${stats.droppedRules} rules of unused components or breakpoints dropped; colours kept: ${[...names.colors].sort().join(', ')}; breakpoints: ${[...names.breakpoints].sort().join(', ')}.`,
    );
  }
  const write = (stem, text) => {
    const hash = createHash('sha256').update(text).digest('base64url').slice(0, 8).toUpperCase().replace(/[-_]/g, 'X');
    const file = path.join(path.dirname(cssFile), `${stem}-${hash}.css`);
    fs.writeFileSync(path.join(root, file), text);
    return file;
  };
  const split = { main: write('main', main), more: rest.trim() ? write('more', rest) : undefined };
  // The whole stylesheet and its map are no longer referenced.
  fs.rmSync(path.join(root, cssFile));
  fs.rmSync(path.join(root, `${cssFile}.map`), { force: true });
  return split;
}

const escapeHtml = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** The chunks signed-in screens load first (besides the entry's): the shell and the entity engine. */
const SIGNED_IN_ROOTS = ['src/app/layout/authenticated-layout.tsx', 'src/engine/routes/entity-routes.tsx', ...FEATURE_LAZY_REGISTRATIONS];
const LANGUAGES = ['en', 'id', 'ms'];

/**
 * Writes index.html (English), index.id.html and index.ms.html pointing at the hashed entry script
 * and stylesheet; copies public/ beside them. Each holds, besides the entry:
 * - the boot script (src/app/boot.ts), inline, run as the parser reaches it;
 * - a JSON block (`type="application/json"`, never executed, the same for every user) listing the
 *   chunks the entry imports statically, which the boot script asks for together (after its API
 *   requests) instead of the browser finding them one import level at a time, and the chunks of
 *   the signed-in shell and engine and of each language's translations, which it preloads only for
 *   a signed-in tab (the sign-in page loads none of them); and the chunks of the app and of the
 *   sign-in page by itself, which the entry script asks for (the one it loads).
 */
function writeIndex(metafile, bootFile, styles) {
  const outputs = metafile.outputs;
  const entryOf = (source) => {
    const found = Object.entries(outputs).find(([file, out]) => out.entryPoint === source && file.endsWith('.js'));
    return found?.[0];
  };
  const script = entryOf('src/app/main.tsx');
  const boot = bootFile;
  if (!script || !boot) throw new Error('The client build produced no entry script.');
  const css = styles?.main ?? outputs[script].cssBundle;
  const rel = (file) => `/${path.relative(publicDir, path.join(root, file)).split(path.sep).join('/')}`;
  /** Every chunk `file` imports statically, transitively (without `file`). */
  const closure = (file, into = new Set()) => {
    for (const imported of outputs[file]?.imports ?? []) {
      if (imported.kind !== 'import-statement' || into.has(imported.path) || !imported.path.endsWith('.js')) continue;
      into.add(imported.path);
      closure(imported.path, into);
    }
    return into;
  };
  // The entry's static imports, and what it loads next: the app (src/app/start.tsx) or, on a page
  // load of /login, the sign-in page by itself (src/app/sign-in-start.tsx), each with its own.
  const start = entryOf('src/app/start.tsx');
  if (!start) throw new Error('The client build has no chunk for src/app/start.tsx.');
  const signIn = entryOf('src/app/sign-in-start.tsx');
  if (!signIn) throw new Error('The client build has no chunk for src/app/sign-in-start.tsx.');
  const startFiles = new Set([start, ...closure(start)]);
  const signInFiles = new Set([signIn, ...closure(signIn)]);
  // What every page needs (the boot script asks for it on every page): the entry's imports and what
  // the app and the sign-in page share (React, i18next, the auth context). The rest of each is
  // asked for by the entry script (src/app/main.tsx) once it knows which it loads: the router
  // and the app's modules are not part of the sign-in page's first load.
  const initial = new Set([...closure(script), ...[...startFiles].filter((file) => signInFiles.has(file))]);
  initial.delete(script);
  initial.delete(boot);
  const onlyIn = (files) => [...files].filter((file) => !initial.has(file) && file !== script && file !== boot);
  // The entry script asks for these itself (they are not in the boot script's lists below).
  const byEntry = new Set([...onlyIn(startFiles), ...onlyIn(signInFiles)]);
  const beyondInitial = (roots) => {
    const files = new Set();
    for (const root of roots.filter(Boolean))
      for (const file of [root, ...closure(root)]) if (!initial.has(file) && !byEntry.has(file) && file !== script && file !== boot) files.add(file);
    return [...files].map(rel);
  };
  const manifest = {
    // The entry script's static imports and what the app and the sign-in page share: asked for by the boot script after its API requests.
    initial: [...initial].map(rel),
    // The app's own and the sign-in page's own: asked for by the entry script (src/app/module-preload.ts), the one it loads.
    start: onlyIn(startFiles).map(rel),
    signIn: onlyIn(signInFiles).map(rel),
    // The colour scales the console does not name itself: loaded by the boot script once the page is idle.
    styles: styles?.more ? [rel(styles.more)] : [],
    app: beyondInitial(SIGNED_IN_ROOTS.map(entryOf)),
    languages: Object.fromEntries(LANGUAGES.map((language) => [language, beyondInitial([entryOf(`locales/${language}/common.json`)])])),
  };
  // The boot script is written into the page (the server's CSP allows it by its hash): it runs as
  // the parser reaches it, before the stylesheet and the app's scripts are even asked for, so its API
  // requests go first. Its source map stays beside the file it was built as.
  const bootCode = fs
    .readFileSync(path.join(root, boot), 'utf8')
    .replace(/\/\/# sourceMappingURL=(\S+)\s*$/, (_, map) => `//# sourceMappingURL=${path.posix.dirname(rel(boot))}/${map}`)
    .trimEnd();
  if (/<\/script|<!--/i.test(bootCode)) throw new Error('The boot script holds "</script" or "<!--": it cannot be written into the page.');
  // `<` cannot end the JSON block early: the build's own file names hold none, but be safe.
  const manifestJson = JSON.stringify(manifest).replace(/</g, '\\u003c');
  // One shell per language (src/shared/shell-language.ts picks it per request): the title and the
  // noscript line from the locale files, and <html lang>, are right before any script runs.
  for (const [language, file] of [
    ['en', 'index.html'],
    ['id', 'index.id.html'],
    ['ms', 'index.ms.html'],
  ]) {
    const texts = JSON.parse(fs.readFileSync(path.join(root, 'locales', language, 'common.json'), 'utf8'));
    // `{{product}}`: the default name (src/shared/product.ts); the app titles the page with the programme's own once it runs.
    const withProduct = (text) => text.replace(/\{\{\s*product\s*\}\}/g, 'Awards CMS');
    const html = `<!doctype html>
<html lang="${language}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>${escapeHtml(withProduct(texts.pages.titles.awardsCms))}</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <script type="application/json" id="ac-preload">${manifestJson}</script>
    <script>${bootCode}</script>
${css ? `    <link rel="stylesheet" href="${rel(css)}" />\n` : ''}    <script type="module" src="${rel(script)}"></script>
  </head>
  <body>
    <div id="root"></div>
    <noscript>${escapeHtml(withProduct(texts.common.noscript))}</noscript>
  </body>
</html>
`;
    fs.writeFileSync(path.join(publicDir, file), html);
  }
  const staticDir = path.join(root, 'public');
  if (fs.existsSync(staticDir)) fs.cpSync(staticDir, publicDir, { recursive: true });
}

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the client of 1 KB or
 * more (source maps aside): the server sends the one the browser accepts (@fastify/static
 * `preCompressed`), so nothing is compressed per request and a remote user downloads about a fifth.
 */
async function precompress(dir) {
  const files = filesUnder(dir).filter((file) => /\.(js|css|html|svg|json|txt)$/.test(file) && fs.statSync(file).size >= 1024);
  await Promise.all(
    files.map(async (file) => {
      const data = await fs.promises.readFile(file);
      const [gz, br] = await Promise.all([
        gzip(data, { level: 9 }),
        brotli(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_QUALITY]: 10,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
      ]);
      await Promise.all([fs.promises.writeFile(`${file}.gz`, gz), fs.promises.writeFile(`${file}.br`, br)]);
    }),
  );
}

async function buildOnce() {
  const started = Date.now();
  fs.rmSync(publicDir, { recursive: true, force: true });
  const [, client, boot] = await Promise.all([
    esbuild.build(serverOptions()),
    esbuild.build(clientOptions()),
    esbuild.build(bootOptions()),
    esbuild.build(renderOptions()),
  ]);
  writeIndex(client.metafile, bootOutput(boot.metafile), splitStylesheet(client.metafile));
  await precompress(publicDir);
  fs.writeFileSync(path.join(dist, 'meta.json'), JSON.stringify(client.metafile));
  fs.writeFileSync(stamp, createHash('sha256').update(String(started)).digest('hex'));
  console.log(`Built the server and the client in ${Date.now() - started} ms.`);
}

async function watch() {
  // A production build's compressed copies would be served in place of the files rebuilt here.
  fs.rmSync(publicDir, { recursive: true, force: true });
  let server;
  const restart = () => {
    server?.kill('SIGTERM');
    server = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], { stdio: 'inherit', cwd: root });
  };
  const onEnd = (name, after) => ({
    name,
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length === 0) after(result);
      });
    },
  });
  const serverCtx = await esbuild.context({ ...serverOptions(), plugins: [onEnd('restart', restart)] });
  let clientMeta;
  let bootFile;
  const index = () => clientMeta && bootFile && writeIndex(clientMeta, bootFile);
  const clientCtx = await esbuild.context({
    ...clientOptions(),
    minify: false,
    plugins: [
      unbarrelRadix,
      signInLocale,
      splitRadixIcons,
      onEnd('index', (result) => {
        clientMeta = result.metafile;
        return index();
      }),
    ],
  });
  const bootCtx = await esbuild.context({
    ...bootOptions(),
    minify: false,
    plugins: [
      onEnd('boot', (result) => {
        bootFile = bootOutput(result.metafile);
        return index();
      }),
    ],
  });
  await Promise.all([clientCtx.watch(), bootCtx.watch(), serverCtx.watch()]);
  console.log('Watching for changes; the server restarts after each server build.');
}

if (args.has('--watch')) {
  await watch();
} else if (args.has('--if-needed') && isUpToDate()) {
  // Nothing changed since the last build.
} else {
  await buildOnce();
}
