// ../../tmp/measure-net.ts
import zlib from "node:zlib";

// tests/helpers/e2e.ts
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
var ADMIN_EMAIL = "admin@example.com";
var ADMIN_PASSWORD = "correct-horse-battery";
var root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
var SCREENSHOT_DIR = path.join(root, "tests", "e2e", "screenshots");
async function freePort() {
  return new Promise((resolve, reject) => {
    const server2 = net.createServer();
    server2.unref();
    server2.on("error", reject);
    server2.listen(0, "127.0.0.1", () => {
      const { port } = server2.address();
      server2.close(() => resolve(port));
    });
  });
}
async function snapshotClient(target) {
  const source = path.join(root, "dist", "public");
  for (let attempt = 0; attempt < 20; attempt += 1) {
    fs.rmSync(target, { recursive: true, force: true });
    try {
      fs.cpSync(source, target, { recursive: true });
      const html = fs.readFileSync(path.join(target, "index.html"), "utf8");
      const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);
      if (assets.length > 0 && assets.every((asset) => fs.existsSync(path.join(target, asset)))) return;
    } catch {
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('dist/public has no complete client build: run "node build.mjs" before the e2e tests.');
}
function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}
async function startServer(env = {}) {
  const main = path.join(root, "dist", "server", "main.js");
  if (!fs.existsSync(main)) throw new Error('dist/server/main.js is missing: run "node build.mjs" before the e2e tests.');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "awards-e2e-"));
  const publicDir = `${dataDir}-public`;
  await snapshotClient(publicDir);
  const port = await freePort();
  const child = spawn(process.execPath, ["--enable-source-maps", main], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_DIR: publicDir,
      DATABASE_URL: "",
      DEMO_DATA: "false",
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      BACKUP_INTERVAL_HOURS: "0",
      LOG_LEVEL: "warn",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  });
  let output = "";
  child.stdout?.on("data", (chunk) => output += chunk);
  child.stderr?.on("data", (chunk) => output += chunk);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 2e4);
    await exited(child);
    clearTimeout(timer);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(publicDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 9e4;
  for (; ; ) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The server exited with ${child.exitCode} before it was ready:
${output}`);
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not answer /api/health within 90 s:
${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, dataDir, output: () => output, stop };
}
async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ]
  });
}
async function signIn(page, url, { email = ADMIN_EMAIL, password = ADMIN_PASSWORD, goto = true } = {}) {
  if (goto) await page.goto(`${url}/login`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((target) => !target.pathname.startsWith("/login"), { timeout: 2e4 });
}
async function screenshot(page, name) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^a-z0-9-_]+/gi, "-").toLowerCase()}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

// ../../tmp/measure-net.ts
var server = await startServer();
var browser = await launchBrowser();
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  const js = [];
  page.on("response", async (r) => {
    const type = r.headers()["content-type"] ?? "";
    if (!type.includes("javascript")) return;
    const body = await r.body();
    js.push({ url: r.url().replace(server.url, ""), raw: body.length, gz: zlib.gzipSync(body, { level: 9 }).length });
  });
  await page.goto(server.url + "/login", { waitUntil: "networkidle" });
  await page.locator("input[name=email]").waitFor();
  const total = js.reduce((a, b) => a + b.gz, 0);
  const raw = js.reduce((a, b) => a + b.raw, 0);
  console.log(`login page JS: ${js.length} files, ${(raw / 1024).toFixed(1)} KB raw, ${(total / 1024).toFixed(1)} KB gzip`);
  for (const f of js) console.log("  ", f.url, (f.gz / 1024).toFixed(1));
  await screenshot(page, "check-login-1280");
  const m = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await m.goto(server.url + "/login?lng=ms");
  await m.locator("input[name=email]").waitFor();
  await screenshot(m, "check-login-390-ms");
  await signIn(m, server.url, { goto: false });
  await m.goto(server.url + "/profile");
  await m.locator("h1").first().waitFor();
  await m.waitForTimeout(800);
  await screenshot(m, "check-profile-390-ms");
  const keyRe = /\b(?:common|nav|pages|entities|validation|errors|toasts)\.[A-Za-z_]+[\w.]*/g;
  for (const route of ["/manage-company", "/manage-category", "/manage-customer", "/manage-contest", "/manage-campaign", "/manage-jury", "/manage-exam", "/create-category", "/sandbox"]) {
    await m.goto(server.url + route);
    await m.locator("h1").first().waitFor({ timeout: 15e3 }).catch(() => void 0);
    await m.waitForTimeout(1500);
    const text = await m.locator("body").innerText();
    console.log(route, JSON.stringify((text.match(keyRe) ?? []).slice(0, 8)), JSON.stringify(text.slice(0, 80)));
  }
  await m.goto(server.url + "/logout", {});
  await screenshot(m, "check-dashboard-after-logout-route");
} finally {
  await browser.close();
  await server.stop();
}
