import { spawn } from 'node:child_process';

/** One load run's figures. */
export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0);

/**
 * Sends GET requests to `url` over `connections` keep-alive connections for `seconds`, after a
 * short warm-up, and measures each latency. Uses `wrk` (a separate C process, so the load
 * generator does not take the server's CPU on a small machine) when it is on the PATH, else an
 * in-process fetch loop. A non-2xx/3xx answer or a socket error counts as an error.
 */
export async function runLoad(url: string, headers: Record<string, string>, connections = 10, seconds = 8, warmupSeconds = 1): Promise<LoadResult> {
  if (await hasWrk()) {
    await runWrk(url, headers, connections, warmupSeconds);
    return runWrk(url, headers, connections, seconds);
  }
  return runFetchLoop(url, headers, connections, seconds, warmupSeconds);
}

let wrkAvailable: Promise<boolean> | undefined;
const hasWrk = () =>
  (wrkAvailable ??= new Promise((resolve) => {
    const child = spawn('wrk', ['--version'], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('exit', () => resolve(true));
  }));

/** `1.23ms` / `850.00us` / `1.02s` → milliseconds. */
/** A wrk duration (`12.5ms`, `1.2s`) in milliseconds. */
export const wrkMs = (value: string, unit: string) => Number(value) * ({ us: 0.001, ms: 1, s: 1000, m: 60_000 } as Record<string, number>)[unit]!;

/** Runs `wrk` with `args` (and extra environment for its Lua script) and answers what it printed; rejects when it fails. */
export function spawnWrk(args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk exited with ${code}: ${out}`))));
  });
}

/** One `wrk` run (1 thread, `connections` connections, latency distribution) parsed into a {@link LoadResult}. */
async function runWrk(url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<LoadResult> {
  const args = ['-t1', `-c${connections}`, `-d${Math.max(1, Math.round(seconds))}s`, '--latency', '--timeout', '10s'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push(url);
  const output = await spawnWrk(args);
  const time = (re: RegExp) => {
    const match = re.exec(output);
    return match ? wrkMs(match[1]!, match[2]!) : 0;
  };
  const requests = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(output);
  if (!requests) throw new Error(`unexpected wrk output: ${output}`);
  const elapsed = wrkMs(requests[2]!, requests[3]!) / 1000;
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0) + (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    requests: Number(requests[1]),
    errors,
    seconds: round(elapsed),
    rps: Math.round(Number(requests[1]) / elapsed),
    p50: round(time(/^[ \t]+50%[ \t]+([\d.]+)(us|ms|s|m)$/m)),
    p99: round(time(/^[ \t]+99%[ \t]+([\d.]+)(us|ms|s|m)$/m)),
    max: round(time(/^[ \t]+Latency[ \t]+\S+[ \t]+\S+[ \t]+([\d.]+)(us|ms|s|m)/m)),
  };
}

/** The fallback: `connections` concurrent fetch loops (each waits for its answer before the next). */
async function runFetchLoop(url: string, headers: Record<string, string>, connections = 10, seconds = 8, warmupSeconds = 1): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const loop = async (until: number, record: boolean) => {
    while (performance.now() < until) {
      const start = performance.now();
      try {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) errors += record ? 1 : 0;
      } catch {
        errors += record ? 1 : 0;
      }
      if (record) latencies.push(performance.now() - start);
    }
  };
  const warm = performance.now() + warmupSeconds * 1000;
  await Promise.all(Array.from({ length: connections }, () => loop(warm, false)));
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(Array.from({ length: connections }, () => loop(until, true)));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    requests: latencies.length,
    errors,
    seconds: round(elapsed),
    rps: Math.round(latencies.length / elapsed),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies[latencies.length - 1] ?? 0),
  };
}
