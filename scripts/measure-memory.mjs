// Measures the server's memory and page-1 latency on a PGlite database (targets: ≤ 300 MB RSS
// under load with 100,000 contests; start on an existing database ≤ 2 s).
//   node scripts/measure-memory.mjs [--source /tmp/ac/pglite-bench] [--server dist/server/main.js]
//        [--seconds 20] [--concurrency 10] [--starts 1] [--node-arg=--flag ...]
// The source data folder is copied to a temporary folder first (the server locks and writes it);
// the copy is removed at the end. RSS is read from /proc/<pid>/status (VmRSS, VmHWM = peak).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const argv = process.argv.slice(2);
function option(name, fallback) {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? argv[index + 1] : fallback;
}
const source = option('source', '/tmp/ac/pglite-bench');
const server = option('server', 'dist/server/main.js');
const seconds = Number(option('seconds', '20'));
const concurrency = Number(option('concurrency', '10'));
const starts = Number(option('starts', '1'));
const nodeArgs = argv.filter((arg) => arg.startsWith('--node-arg=')).map((arg) => arg.slice('--node-arg='.length));
const admin = { email: 'bench@example.com', password: 'bench-password-123' };
const pagePath = '/api/contests?page=1&per_page=15&include=customer,category';
// Prints process.memoryUsage() to stderr on SIGUSR2, without touching the server's code.
const probe = `data:text/javascript,process.on('SIGUSR2',()=>process.stderr.write('MEM '+JSON.stringify(process.memoryUsage())+'\\n'))`;

const mb = (bytes) => Math.round(bytes / 1048576);

function procStatus(pid) {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const probeServer = net.createServer();
    probeServer.listen(0, '127.0.0.1', () => {
      const { port } = probeServer.address();
      probeServer.close(() => resolve(port));
    });
    probeServer.on('error', reject);
  });
}

async function startServer(dataDir) {
  const port = await freePort();
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DEMO_DATA: 'false',
    BACKUP_INTERVAL_HOURS: '0',
  };
  const began = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, '--import', probe, server], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let memoryLine;
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk.toString();
    const match = /MEM (\{.*\})\n/.exec(stderr);
    if (match) {
      memoryLine?.(JSON.parse(match[1]));
      stderr = stderr.replace(match[0], '');
    }
  });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the server did not start within 60 s'));
    }, 60_000);
    child.stdout.on('data', (chunk) => {
      if (chunk.toString().includes('is running at')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${stderr}`)));
  });
  const startMs = performance.now() - began;
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid,
    startMs,
    memoryUsage: () =>
      new Promise((resolve) => {
        memoryLine = resolve;
        child.kill('SIGUSR2');
      }),
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

async function signIn(base) {
  const health = await fetch(`${base}/api/health`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
    body: JSON.stringify(admin),
  });
  if (res.status !== 200) throw new Error(`sign-in failed (${res.status})`);
  const { token } = await res.json();
  return { authorization: `Bearer ${token}` };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

function describe(usage) {
  const parts = ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'].map((key) => `${key} ${mb(usage[key])}`);
  return parts.join(', ');
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-mem-'));
  fs.cpSync(source, dataDir, { recursive: true });
  try {
    const startTimes = [];
    for (let i = 1; i < starts; i += 1) {
      const extra = await startServer(dataDir);
      startTimes.push(extra.startMs);
      await extra.stop();
    }
    const app = await startServer(dataDir);
    startTimes.push(app.startMs);
    try {
      const headers = await signIn(app.base);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const idle = procStatus(app.pid);
      const idleUsage = await app.memoryUsage();
      const latencies = [];
      let peak = idle.rss;
      const sampler = setInterval(() => (peak = Math.max(peak, procStatus(app.pid).rss)), 200);
      const until = performance.now() + seconds * 1000;
      let failures = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() < until) {
            const t = performance.now();
            const res = await fetch(`${app.base}${pagePath}`, { headers });
            await res.arrayBuffer();
            if (res.status !== 200) failures += 1;
            latencies.push(performance.now() - t);
          }
        }),
      );
      clearInterval(sampler);
      const loaded = procStatus(app.pid);
      const loadedUsage = await app.memoryUsage();
      latencies.sort((a, b) => a - b);
      const round = (value) => Math.round(value * 10) / 10;
      console.log(`server: ${server} ${nodeArgs.join(' ')}`);
      console.log(`start ms: ${startTimes.map((ms) => Math.round(ms)).join(', ')}`);
      console.log(`after start: VmRSS ${mb(idle.rss)} MB (${describe(idleUsage)})`);
      console.log(
        `under load:  VmRSS ${mb(loaded.rss)} MB, sampled peak ${mb(Math.max(peak, loaded.rss))} MB, VmHWM ${mb(loaded.hwm)} MB (${describe(loadedUsage)})`,
      );
      console.log(
        `page-1 latency (${concurrency} loops, ${seconds} s): ${latencies.length} requests, ${failures} non-200, ` +
          `p50 ${round(percentile(latencies, 50))} ms, p95 ${round(percentile(latencies, 95))} ms, ` +
          `${round(latencies.length / seconds)} req/s`,
      );
    } finally {
      await app.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
