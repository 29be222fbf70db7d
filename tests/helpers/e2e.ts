import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { freePort } from './free-port.js';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'correct-horse-battery';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
/** Where failing tests leave their screenshots (git-ignored). */
export const SCREENSHOT_DIR = path.join(root, 'tests', 'e2e', 'screenshots');

/** A running server built from `dist/` with its own fresh data directory. */
export interface StartedServer {
  url: string;
  dataDir: string;
  /** What the server printed so far (for failure messages). */
  output(): string;
  /** Stops the server with SIGTERM, waits for it to exit, and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Copies the built client to `target` so that another build of the shared work tree (which
 * empties dist/public) cannot pull the files from under a running test. Retries while a build is
 * half-way (index.html naming a script that is not there yet).
 */
async function snapshotClient(target: string): Promise<void> {
  const source = path.join(root, 'dist', 'public');
  for (let attempt = 0; attempt < 20; attempt += 1) {
    fs.rmSync(target, { recursive: true, force: true });
    try {
      fs.cpSync(source, target, { recursive: true });
      const html = fs.readFileSync(path.join(target, 'index.html'), 'utf8');
      const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
      if (assets.length > 0 && assets.every((asset) => fs.existsSync(path.join(target, asset)))) return;
    } catch {
      // A build is replacing the folder right now.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('dist/public has no complete client build: run "node build.mjs" before the e2e tests.');
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts `node dist/server/main.js` (run `node build.mjs` first) on a free port with a fresh
 * temporary DATA_DIR, serving a private copy of the built client, no demo data and the known admin, and waits until `/api/health` answers.
 *
 * @example const server = await startServer(); ... await server.stop();
 */
export async function startServer(env: Record<string, string> = {}): Promise<StartedServer> {
  const main = path.join(root, 'dist', 'server', 'main.js');
  if (!fs.existsSync(main)) throw new Error('dist/server/main.js is missing: run "node build.mjs" before the e2e tests.');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'awards-e2e-'));
  const publicDir = `${dataDir}-public`;
  await snapshotClient(publicDir);
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', main], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_DIR: publicDir,
      DATABASE_URL: '',
      DEMO_DATA: 'false',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      BACKUP_INTERVAL_HOURS: '0',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited(child);
    clearTimeout(timer);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(publicDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The server exited with ${child.exitCode} before it was ready:\n${output}`);
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not answer /api/health within 90 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, dataDir, output: () => output, stop };
}

/** One browser suite's set-up: its own server and a browser. */
export interface BrowserSuite {
  server: StartedServer;
  browser: Browser;
  /** Closes the browser (and every context opened in it) and stops the server. */
  close(): Promise<void>;
}

/**
 * Starts a server (`env` as for {@link startServer}) and a browser for one suite.
 *
 * @example beforeAll(async () => ({ server, browser } = suite = await startBrowserSuite())); afterAll(() => suite?.close());
 */
export async function startBrowserSuite(env: Record<string, string> = {}): Promise<BrowserSuite> {
  const server = await startServer(env);
  try {
    const browser = await launchBrowser();
    return {
      server,
      browser,
      async close() {
        await browser.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** A {@link BrowserSuite} with a 1280 px page signed in as the test admin. */
export interface SignedInSuite extends BrowserSuite {
  page: Page;
}

/**
 * Starts a server and a browser, and signs a fresh page in.
 *
 * @example beforeAll(async () => ({ server, page } = suite = await startSignedInSuite())); afterAll(() => suite?.close());
 */
export async function startSignedInSuite(env: Record<string, string> = {}): Promise<SignedInSuite> {
  const suite = await startBrowserSuite(env);
  try {
    const page = await (await newContext(suite.browser)).newPage();
    await signIn(page, suite.server.url);
    return { ...suite, page };
  } catch (error) {
    await suite.close();
    throw error;
  }
}

/** Headless Chromium (`CHROMIUM_PATH` or `/usr/bin/chromium`) with the team's flags. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
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
}

/** A fresh browser context (own storage and cookies) in English at the given width. */
export async function newContext(browser: Browser, width = 1280, height = 800): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width, height }, locale: 'en-US' });
}

/**
 * Signs in through the login form (field names, so it works in any language) and waits until the
 * app has left `/login`. Goes to `/login` first unless `goto` is false (the page is already there).
 */
export async function signIn(
  page: Page,
  url: string,
  { email = ADMIN_EMAIL, password = ADMIN_PASSWORD, goto = true }: { email?: string; password?: string; goto?: boolean } = {},
): Promise<void> {
  if (goto) await page.goto(`${url}/login`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((target) => !target.pathname.startsWith('/login'), { timeout: 20_000 });
}

/** Saves a full-page screenshot under tests/e2e/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^a-z0-9-_]+/gi, '-').toLowerCase()}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Runs a test body with a page and, when it throws, keeps a screenshot of the page as it was
 * before rethrowing.
 */
export async function withScreenshotOnFailure<T>(page: Page, name: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    await screenshot(page, `failed-${name}`).catch(() => undefined);
    throw error;
  }
}

/**
 * Waits until every finite CSS animation on the page has finished (a popover's 160 ms fade-in, a
 * slide-in menu), so that a colour-contrast check measures the colours a reader sees, not a
 * half-faded frame. Endless animations (spinners) are left running.
 */
export async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)));
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });
}
