// Measures the JavaScript the login page needs before it is usable (target: ≤ 135 KB gzip, DESIGN §8).
//   node scripts/measure-login-js.mjs                    static figure from dist/meta.json (run `node build.mjs` first)
//   node scripts/measure-login-js.mjs --url <server>     also loads <server>/login in headless Chromium and counts
//                                                        the JS/JSON it fetched until the form is usable
//   --max-kb <n>                                         exit 1 when a figure is above n KB gzip (the target: 135; default: report only)
// Starts no server: point --url at one you started (e.g. `npm start`, or `node dist/server/main.js`).
// Sizes are gzip at zlib's default level (what a compressing server or CDN sends), 1 KB = 1024 bytes.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const serverUrl = option('--url');
const maxKb = option('--max-kb') === undefined ? Infinity : Number(option('--max-kb'));

const gzipSize = (buffer) => zlib.gzipSync(buffer).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const ENTRY = 'src/app/main.tsx';
/** The sign-in page by itself, which the entry imports on a page load of /login (`await import('./sign-in-start.js')`) before anything renders. */
const START = 'src/app/sign-in-start.tsx';
const LOGIN_SCREEN = 'src/app/pages/login-page.tsx';
/**
 * What the sign-in page does not need: none of it may be in its first load (reported and failed).
 * Opened by itself (src/app/sign-in-start.tsx) it runs without the router. The engine's registry
 * is in it (the roles' homes, where signing in leads); the features' cells, widgets and row
 * actions, which bring the engine, are not (their faces' `lazy` parts).
 */
const NOT_ON_SIGN_IN = [
  /^node_modules\/react-router(-dom)?\//,
  /^node_modules\/@tanstack\//,
  /^node_modules\/dayjs\//,
  /^node_modules\/react-toastify\//,
  /^node_modules\/@radix-ui\/react-icons\//,
  /^node_modules\/@radix-ui\/themes\/dist\/esm\/components\/(theme|tooltip|dialog|alert-dialog|popover|dropdown-menu|select)\.js$/,
  /^node_modules\/@rjsf\//,
  /^src\/app\/(dialogs|layout\/authenticated-layout)/,
  /^src\/engine\/(?!data\/(http-client|api-error|extra-translations)|registry\/|i18n\/use-translation|ui\/(server-title|toast-context|service-context))/,
];
/** What the sign-in page's first load imports on demand besides its screen (see src/app/i18n.ts). */
const SIGN_IN_LOCALE = /^locales\/en\/common\.json\?sign-in$|^sign-in-locale:en$/;

/** The outputs reached from `start` through static imports only. */
function staticClosure(outputs, start) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file) || !outputs[file]) return;
    seen.add(file);
    for (const imported of outputs[file].imports ?? []) if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(start);
  return seen;
}

function measureMeta() {
  const metaPath = path.join(root, 'dist', 'meta.json');
  if (!fs.existsSync(metaPath)) throw new Error('dist/meta.json is missing: run "node build.mjs" first.');
  const { outputs } = JSON.parse(fs.readFileSync(metaPath, 'utf8'));
  const js = Object.keys(outputs).filter((file) => file.endsWith('.js'));
  const find = (test, what) => {
    const file = js.find((candidate) => test(outputs[candidate].entryPoint ?? ''));
    if (!file) throw new Error(`dist/meta.json has no output for ${what}.`);
    return file;
  };
  const entry = find((point) => point === ENTRY, ENTRY);
  const start = find((point) => point === START, START);
  const login = find((point) => point === LOGIN_SCREEN, LOGIN_SCREEN);
  const locale =
    js.find((file) => SIGN_IN_LOCALE.test(outputs[file].entryPoint ?? '')) ?? find((point) => point === 'locales/en/common.json', 'the English translations');

  const code = new Set([...staticClosure(outputs, entry), ...staticClosure(outputs, start), ...staticClosure(outputs, login)]);
  const files = [...code, ...[...staticClosure(outputs, locale)].filter((file) => !code.has(file))];
  const rows = files.map((file) => {
    const gzip = gzipSize(fs.readFileSync(path.join(root, file)));
    const inputs = Object.entries(outputs[file].inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
    const main = [...new Set(inputs.map(([input]) => input.replace(/^node_modules\//, '').replace(/\/dist\/.*$/, '')))].slice(0, 2);
    return { file: path.relative('dist/public', file), gzip, main: main.join(', ') || '(glue)' };
  });
  const codeTotal = rows.filter((row) => code.has(path.join('dist/public', row.file))).reduce((sum, row) => sum + row.gzip, 0);
  const total = rows.reduce((sum, row) => sum + row.gzip, 0);

  console.log(`Static import closure of ${ENTRY} + ${START} + ${LOGIN_SCREEN}, plus the English translations it loads (dist/meta.json):`);
  for (const row of rows.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${kb(row.gzip).padStart(9)}  ${row.file.padEnd(46)} ${row.main}`);
  console.log(`  code ${kb(codeTotal)} + translations ${kb(total - codeTotal)} = ${kb(total)} gzip in ${rows.length} files`);
  // The keys of what renders on the sign-in page (the entry and its screen; the app's router and
  // registry name keys of signed-in screens only).
  checkSignInKeys(outputs, [...new Set([...staticClosure(outputs, entry), ...staticClosure(outputs, login)])]);
  const unwanted = [...code].flatMap((file) => Object.keys(outputs[file].inputs).filter((input) => NOT_ON_SIGN_IN.some((pattern) => pattern.test(input))));
  if (unwanted.length > 0) {
    console.error(`The first load carries what the sign-in page does not need:\n  ${unwanted.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log(
      '  none of the router, TanStack Query, dayjs, react-toastify, Radix icons/Theme/overlays, rjsf, the dialog service, the layout or the engine is in it',
    );
  }
  return total;
}

/**
 * The sign-in page gets only the translation keys src/app/sign-in-keys.json lists: every key
 * literal in the sources of its first load must be one of them (else it would show a raw key).
 */
function checkSignInKeys(outputs, files) {
  const read = (file) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
  const english = read('locales/en/common.json');
  const { keys, elsewhere = [] } = read('src/app/sign-in-keys.json');
  const exists = (key) => key.split('.').reduce((node, step) => (node && typeof node === 'object' ? node[step] : undefined), english) !== undefined;
  const covered = (key) => [...keys, ...elsewhere].some((listed) => key === listed || key.startsWith(`${listed}.`));
  const sources = new Set(files.flatMap((file) => Object.keys(outputs[file].inputs).filter((input) => input.startsWith('src/'))));
  const missing = [];
  for (const source of sources) {
    const text = fs.readFileSync(path.join(root, source), 'utf8');
    for (const [, key] of text.matchAll(/['"`]([a-z]\w*(?:\.\w+)+)['"`]/gi)) if (exists(key) && !covered(key)) missing.push(`${source}: ${key}`);
  }
  if (missing.length > 0) {
    console.error(`Keys the sign-in page uses but src/app/sign-in-keys.json does not list:\n  ${missing.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log(`  the ${sources.size} source files of that load name only keys src/app/sign-in-keys.json lists`);
  }
}

async function measureBrowser(url) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    let usable = false;
    const before = [];
    const after = [];
    page.on('response', (response) => {
      const type = response.headers()['content-type'] ?? '';
      if (!/javascript|json/.test(type)) return;
      (usable ? after : before).push(
        response.body().then(
          (body) => ({ url: new URL(response.url()).pathname, gzip: gzipSize(body) }),
          () => null,
        ),
      );
    });
    const started = Date.now();
    await page.goto(`${url.replace(/\/$/, '')}/login`);
    // Usable: both fields editable, the Login button enabled, and the texts translated (no raw keys).
    await page.locator('input[name="email"]:not([disabled])').waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator('input[name="password"]:not([disabled])').waitFor({ state: 'visible' });
    await page.locator('form button[type="submit"]:not([disabled])').waitFor({ state: 'visible' });
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text a person reads; textContent would also read the page's inline scripts
    await page.waitForFunction(() => !/\bpages\.login\./.test(document.body.innerText));
    usable = true;
    const elapsed = Date.now() - started;
    await page.waitForTimeout(2000);
    const loaded = (await Promise.all(before)).filter(Boolean);
    const later = (await Promise.all(after)).filter(Boolean);
    const total = loaded.reduce((sum, row) => sum + row.gzip, 0);
    console.log(`\nChromium, ${url}/login, JS/JSON fetched until the form was usable (${elapsed} ms):`);
    for (const row of loaded.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${kb(row.gzip).padStart(9)}  ${row.url}`);
    console.log(`  total ${kb(total)} gzip in ${loaded.length} responses`);
    const laterTotal = later.reduce((sum, row) => sum + row.gzip, 0);
    console.log(
      `Fetched in the 2 s after: ${later.length} responses, ${kb(laterTotal)} gzip${later.map((row) => `\n  ${kb(row.gzip).padStart(9)}  ${row.url}`).join('')}`,
    );
    return total;
  } finally {
    await browser.close();
  }
}

let staticFigure;
try {
  staticFigure = measureMeta();
} catch (error) {
  if (error?.code !== 'ENOENT') throw error;
  console.error(`${error.path} is gone: another build replaced dist/ while measuring; run the script again.`);
  process.exit(2);
}
const figures = [staticFigure];
if (serverUrl) figures.push(await measureBrowser(serverUrl));
if (figures.some((bytes) => bytes / 1024 > maxKb)) {
  console.error(`Over the budget of ${maxKb} KB gzip.`);
  process.exit(1);
}
