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
function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}
async function startServer(env = {}) {
  const main = path.join(root, "dist", "server", "main.js");
  if (!fs.existsSync(main)) throw new Error('dist/server/main.js is missing: run "node build.mjs" before the e2e tests.');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "awards-e2e-"));
  const port = await freePort();
  const child = spawn(process.execPath, ["--enable-source-maps", main], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
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

// ../../tmp/dbg2.ts
var server = await startServer({ LOG_LEVEL: "info" });
var browser = await launchBrowser();
try {
  const a = await (await browser.newContext()).newPage();
  const b = await (await browser.newContext()).newPage();
  a.on("console", (m) => console.log("A console:", m.type(), m.text()));
  a.on("response", (r2) => {
    if (r2.url().includes("/api/")) console.log("A resp", r2.status(), r2.url());
  });
  await signIn(a, server.url);
  await signIn(b, server.url);
  console.log("both signed in");
  await a.getByRole("link", { name: "Profile" }).first().click();
  await a.waitForTimeout(3e3);
  console.log("A url", a.url(), await a.locator("h1").allInnerTexts());
  const t0 = Date.now();
  const r = await fetch(server.url + "/api/health").catch((e) => e.message);
  console.log("health", typeof r === "string" ? r : r.status, Date.now() - t0);
} finally {
  await browser.close();
  console.log(server.output().split("\n").filter((l) => !l.includes('"level":30')).slice(-20).join("\n"));
  await server.stop();
}
