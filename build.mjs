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

const root = path.dirname(new URL(import.meta.url).pathname);
const dist = path.join(root, 'dist');
const publicDir = path.join(dist, 'public');
const stamp = path.join(dist, '.build-stamp');
const args = new Set(process.argv.slice(2));

/** Server-side programs: the output name and its entry, built when the entry exists. */
const serverEntries = {
  main: 'src/server/main.ts',
  seed: 'src/server/db/seed/seed-cli.ts',
  backup: 'src/server/backup/backup-cli.ts',
  restore: 'src/server/backup/restore-cli.ts',
  'audit-verify': 'src/server/history/audit-verify-cli.ts',
  bench: 'tests/bench/run.ts',
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
  const inputs = ['src', 'locales', 'public', 'tests/bench', 'package.json', 'package-lock.json', 'build.mjs'];
  return inputs.every((input) => newestMtime(path.join(root, input)) <= built);
}

function serverOptions() {
  const entryPoints = Object.fromEntries(
    Object.entries(serverEntries).filter(([, entry]) => fs.existsSync(path.join(root, entry))),
  );
  return {
    absWorkingDir: root,
    entryPoints,
    outdir: path.join(dist, 'server'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  };
}

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
    plugins: [unbarrelRadix, signInLocale],
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

const escapeHtml = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/**
 * Writes index.html (English), index.id.html and index.ms.html pointing at the hashed entry script
 * and stylesheet; copies public/ beside them.
 */
function writeIndex(metafile) {
  const outputs = Object.entries(metafile.outputs);
  const entry = outputs.find(([, out]) => out.entryPoint === 'src/app/main.tsx' && !out.entryPoint.endsWith('.css'));
  if (!entry) throw new Error('The client build produced no entry script.');
  const [script, info] = entry;
  const css = info.cssBundle;
  const rel = (file) => '/' + path.relative(publicDir, path.join(root, file)).split(path.sep).join('/');
  // One shell per language (src/shared/shell-language.ts picks it per request): the title and the
  // noscript line from the locale files, and <html lang>, are right before any script runs.
  for (const [language, file] of [['en', 'index.html'], ['id', 'index.id.html'], ['ms', 'index.ms.html']]) {
    const texts = JSON.parse(fs.readFileSync(path.join(root, 'locales', language, 'common.json'), 'utf8'));
    const html = `<!doctype html>
<html lang="${language}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>${escapeHtml(texts.pages.titles.awardsCms)}</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
${css ? `    <link rel="stylesheet" href="${rel(css)}" />\n` : ''}    <script type="module" src="${rel(script)}"></script>
  </head>
  <body>
    <div id="root"></div>
    <noscript>${escapeHtml(texts.common.noscript)}</noscript>
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
  const [, client] = await Promise.all([esbuild.build(serverOptions()), esbuild.build(clientOptions())]);
  writeIndex(client.metafile);
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
  const clientCtx = await esbuild.context({
    ...clientOptions(),
    minify: false,
    plugins: [unbarrelRadix, signInLocale, onEnd('index', (result) => writeIndex(result.metafile))],
  });
  await Promise.all([clientCtx.watch(), serverCtx.watch()]);
  console.log('Watching for changes; the server restarts after each server build.');
}

if (args.has('--watch')) {
  await watch();
} else if (args.has('--if-needed') && isUpToDate()) {
  // Nothing changed since the last build.
} else {
  await buildOnce();
}
