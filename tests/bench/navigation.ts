import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Browser, Response } from 'playwright-core';
import { launchBrowser } from '../helpers/e2e.js';
import { type BenchTarget, startBenchServer } from './bench-server.js';
import type { BenchContext } from './scenarios.js';

/** Target: cold navigation to the contests list → first row, headless Chromium, local server. */
export const FIRST_ROW_TARGET_MS = 300;
/** Target: JS + CSS the browser loads before the first list row, gzip (zlib's default level, 1 KB = 1024 bytes). */
export const FIRST_ROW_BYTES_TARGET_KB = 200;
/** Target: JS the browser loads before the login page is usable, gzip (DESIGN §8: 135, was 150). */
export const LOGIN_BYTES_TARGET_KB = 135;
const RUNS = 10;

// Before the app's scripts run: the signed-in tab's storage (the token store's keys) and an observer that
// notes when the first data row (a row header cell in the list's body) is in the document.
export const PREPARE = ({ token, refreshToken, expiresAt, user }: { token: string; refreshToken: string; expiresAt: number; user: unknown }) => {
  sessionStorage.setItem('auth_token', token);
  sessionStorage.setItem('auth_refresh_token', refreshToken);
  sessionStorage.setItem('auth_expires_at', String(expiresAt));
  localStorage.setItem('auth_user', JSON.stringify(user));
  // The first row in the document (the server's first screen or the app's); when it is usable: not
  // inside an `[inert]` screen, with the list's 'Next' enabled and not inert (as
  // ../shared/anchors/scripts/compare-bench.mjs says it); and the first row of the app's own render
  // (the server's first screen replaced).
  const w = window as unknown as { __firstRowAt?: number; __firstRowDrawnAt?: number; __usableRowAt?: number; __appRowAt?: number };
  const observer = new MutationObserver(() => {
    const row = document.querySelector('tbody .rt-TableRowHeaderCell');
    if (!row) return;
    if (w.__firstRowAt === undefined) {
      w.__firstRowAt = performance.now();
      // Drawn: after the frame that shows it (its style, layout and paint), as for the anchors.
      requestAnimationFrame(() => setTimeout(() => (w.__firstRowDrawnAt = performance.now()), 0));
    }
    if (w.__usableRowAt === undefined && !row.closest('[inert]')) {
      const next = [...document.querySelectorAll('nav button')].find((b) => b.textContent?.trim() === 'Next') as HTMLButtonElement | undefined;
      if (next && !next.disabled && !next.closest('[inert]')) w.__usableRowAt = performance.now();
    }
    if (!document.querySelector('#root > [inert], #root > [data-first-screen]')) {
      w.__appRowAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['inert', 'disabled'] });
};

/**
 * Opens the contests list (`/manage-contest`) in a new browser context each time (no HTTP cache,
 * no storage but the session) and reads, from the page's own clock, how long after the start of
 * navigation its first data row was in the document. Prints every run, the median and the worst.
 */
/**
 * The server a browser bench opens: the seeded database (BENCH_DATABASE_URL or BENCH_DATA_DIR) when
 * there is one, else the demo data set in its own PGlite folder.
 */
export async function startBrowserBenchServer(context: BenchContext) {
  const dataDir = process.env.BENCH_DATA_DIR;
  const seeded = Boolean(context.postgresUrl || dataDir);
  const target: BenchTarget = context.postgresUrl
    ? { kind: 'postgres', url: context.postgresUrl }
    : { kind: 'pglite', dataDir: dataDir ?? context.pgliteDir('navigation') };
  const server = await startBenchServer(target, seeded ? {} : { DEMO_DATA: 'true' });
  /** Which database it answers from, for the printed figures. */
  const source = context.postgresUrl
    ? 'PostgreSQL, BENCH_DATABASE_URL'
    : seeded
      ? `PGlite, BENCH_DATA_DIR=${dataDir}`
      : `PGlite with the demo data in ${target.kind === 'pglite' ? target.dataDir : ''}`;
  return Object.assign(server, { source });
}

/**
 * Chromium's own start (its first renderer process, fonts, the compiler's first work) on a page of
 * no app's, so that the first measured run, the first visitor after the server's start, shows what
 * the server makes it wait rather than what a just-launched browser does.
 */
export async function warmUpBrowser(browser: Browser): Promise<void> {
  const browserContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  try {
    const page = await browserContext.newPage();
    await page.setContent('<main><table><tbody><tr><th>Warm-up</th><td><button type="button">Next</button></td></tr></tbody></table></main>');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  } finally {
    await browserContext.close();
  }
}

export async function runNavigationBench(context: BenchContext): Promise<boolean> {
  const server = await startBrowserBenchServer(context);
  let browser: Browser | undefined;
  try {
    const { session } = server;
    const total = ((await (await fetch(`${server.base}/api/contests?per_page=1`, { headers: server.headers })).json()) as { meta: { total: number } }).meta
      .total;
    context.log(`contests in the database: ${total} (${server.source})`);
    browser = await launchBrowser();
    await warmUpBrowser(browser);
    const times: number[] = [];
    const readyTimes: number[] = [];
    const usableTimes: number[] = [];
    const chartChunks = chartChunkPaths();
    const byteRuns: Array<{ kb: number; files: number; charts: string[] }> = [];
    for (let run = 0; run < RUNS; run++) {
      const browserContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
      try {
        await browserContext.addInitScript(PREPARE, {
          token: session.token,
          refreshToken: session.refreshToken,
          expiresAt: Date.now() + session.expiresIn * 1000,
          user: session.data,
        });
        const page = await browserContext.newPage();
        // Each run counts the scripts and stylesheets fetched until the first row (the first run after
        // the server starts has no server-rendered first screen: its render thread starts with it).
        const loaded: Array<Promise<{ url: string; gzip: number } | null>> = [];
        let counting = true;
        const onResponse = (response: Response) => {
          const type = response.headers()['content-type'] ?? '';
          if (!counting || !/javascript|css/.test(type)) return;
          const url = new URL(response.url()).pathname;
          loaded.push(
            response.body().then(
              (body) => ({ url, gzip: zlib.gzipSync(body).length }),
              () => null,
            ),
          );
        };
        page.on('response', onResponse);
        await page.goto(`${server.base}/manage-contest`);
        await page.waitForFunction(() => (window as unknown as { __firstRowAt?: number }).__firstRowAt !== undefined, null, { timeout: 30_000 });
        counting = false;
        times.push(Math.round(await page.evaluate(() => (window as unknown as { __firstRowAt: number }).__firstRowAt)));
        await page.waitForFunction(() => (window as unknown as { __usableRowAt?: number }).__usableRowAt !== undefined, null, { timeout: 30_000 });
        usableTimes.push(Math.round(await page.evaluate(() => (window as unknown as { __usableRowAt: number }).__usableRowAt)));
        await page.waitForFunction(() => (window as unknown as { __appRowAt?: number }).__appRowAt !== undefined, null, { timeout: 30_000 });
        readyTimes.push(Math.round(await page.evaluate(() => (window as unknown as { __appRowAt: number }).__appRowAt)));
        // Only what the page's own resource timing shows complete before its first row (the driver
        // notices the row a little later).
        const firstRowAt = await page.evaluate(() => (window as unknown as { __firstRowAt: number }).__firstRowAt);
        const before = new Set(
          await page.evaluate(
            (at) =>
              performance
                .getEntriesByType('resource')
                .filter((entry) => (entry as PerformanceResourceTiming).responseEnd <= at)
                .map((entry) => new URL(entry.name).pathname),
            firstRowAt,
          ),
        );
        const rows = (await Promise.all(loaded)).filter((row): row is { url: string; gzip: number } => row !== null && before.has(row.url));
        byteRuns.push({
          kb: rows.reduce((sum, row) => sum + row.gzip, 0) / 1024,
          files: rows.length,
          charts: rows.map((row) => row.url).filter((url) => chartChunks.includes(url)),
        });
      } finally {
        await browserContext.close();
      }
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const worst = sorted.at(-1)!;
    const ok = median <= FIRST_ROW_TARGET_MS;
    context.log(
      `${ok ? 'ok    ' : 'MISSED'} contests list, first row after navigation: median ${median} ms, worst ${worst} ms, first run ${times[0]} ms (target ≤ ${FIRST_ROW_TARGET_MS} ms; ${RUNS} cold browser contexts, headless Chromium)`,
    );
    context.log(`       runs: ${times.join(', ')} ms  [${context.command}]`);
    const readySorted = [...readyTimes].sort((a, b) => a - b);
    const usableSorted = [...usableTimes].sort((a, b) => a - b);
    context.log(
      `       usable first row (not inside an inert screen, 'Next' enabled): median ${usableSorted[Math.floor(usableSorted.length / 2)]} ms, worst ${usableSorted.at(-1)} ms, first run ${usableTimes[0]} ms; runs ${usableTimes.join(', ')} ms`,
    );
    context.log(
      `       the app's own first row (its render replacing the server's first screen): median ${readySorted[Math.floor(readySorted.length / 2)]} ms, runs ${readyTimes.join(', ')} ms`,
    );
    const bySize = [...byteRuns].sort((a, b) => a.kb - b.kb);
    const bytes = bySize[Math.floor(bySize.length / 2)]!;
    const charts = [...new Set(byteRuns.flatMap((run) => run.charts))];
    const bytesOk = bytes.kb <= FIRST_ROW_BYTES_TARGET_KB && charts.length === 0;
    context.log(
      `${bytesOk ? 'ok    ' : 'MISSED'} contests list, JS + CSS before the first row: ${bytes.kb.toFixed(1)} KB gzip in ${bytes.files} files, median of the runs (runs ${byteRuns.map((run) => run.kb.toFixed(1)).join(', ')} KB; target ≤ ${FIRST_ROW_BYTES_TARGET_KB} KB); chart.js chunks fetched: ${charts.length ? charts.join(', ') : 'none'} (${chartChunks.length} in the build)  [${context.command}]`,
    );
    const login = await loginPageBytes(browser, server.base);
    const loginOk = login.kb <= LOGIN_BYTES_TARGET_KB;
    context.log(
      `${loginOk ? 'ok    ' : 'MISSED'} login page, JS before it is usable (its e-mail field in the document): ${login.kb.toFixed(1)} KB gzip in ${login.files} files (target ≤ ${LOGIN_BYTES_TARGET_KB} KB; a signed-out browser with nothing cached)  [${context.command}]`,
    );
    return ok && bytesOk && loginOk;
  } finally {
    await browser?.close();
    await server.stop();
  }
}

/** The JS (gzip) a signed-out browser with nothing cached loads before the login form's e-mail field is there. */
async function loginPageBytes(browser: Browser, base: string): Promise<{ kb: number; files: number }> {
  const browserContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  try {
    const page = await browserContext.newPage();
    const loaded: Array<Promise<{ url: string; gzip: number } | null>> = [];
    page.on('response', (response: Response) => {
      if (!/javascript/.test(response.headers()['content-type'] ?? '')) return;
      const url = new URL(response.url()).pathname;
      loaded.push(
        response.body().then(
          (body) => ({ url, gzip: zlib.gzipSync(body).length }),
          () => null,
        ),
      );
    });
    await page.goto(`${base}/login`);
    await page.waitForSelector('form input[name="email"]', { timeout: 30_000 });
    const usableAt = await page.evaluate(() => performance.now());
    const before = new Set(
      await page.evaluate(
        (at) =>
          performance
            .getEntriesByType('resource')
            .filter((entry) => (entry as PerformanceResourceTiming).responseEnd <= at)
            .map((entry) => new URL(entry.name).pathname),
        usableAt,
      ),
    );
    const rows = (await Promise.all(loaded)).filter((row): row is { url: string; gzip: number } => row !== null && before.has(row.url));
    return { kb: rows.reduce((sum, row) => sum + row.gzip, 0) / 1024, files: rows.length };
  } finally {
    await browserContext.close();
  }
}

/** The built client's chunks that hold chart.js (esbuild's metafile, dist/meta.json), as URL paths. */
function chartChunkPaths(): string[] {
  const file = path.resolve('dist', 'meta.json');
  if (!fs.existsSync(file)) return [];
  const meta = JSON.parse(fs.readFileSync(file, 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  return Object.entries(meta.outputs)
    .filter(([out, entry]) => out.endsWith('.js') && Object.keys(entry.inputs).some((input) => input.includes('node_modules/chart.js/')))
    .map(([out]) => `/${path.relative('dist/public', out)}`);
}
