import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnWrk, wrkMs } from './load.js';

/**
 * The spread of list requests, the same on every run (a seeded generator): a random
 * page from 1 to 2,000, every allowed sort in both directions, 30 % filtered by a customer, 10 %
 * by an agency name, 2 % writes (a category's description: any such write changes the data
 * version every cached contests list was stored under).
 */
export interface SpreadOptions {
  count: number;
  seed: number;
  sorts: readonly string[];
  /** Customer ids to filter by (one drawn per filtered request). */
  customerIds: readonly number[];
  /** Agency-name substrings (the seed's company name prefixes). */
  agencyNames: readonly string[];
  /** The categories the writes update (a PUT carries the whole record: name and status as they are). */
  categories: ReadonlyArray<{ id: number; name: string; status: string }>;
  maxPage?: number;
}

/** One request of the spread as the wrk script reads it: `GET <path>` or `PUT <path> <json>`. */
export type SpreadLine = string;

/** mulberry32: a small, fast, seeded generator (the same sequence on every run). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function spreadRequests(options: SpreadOptions): SpreadLine[] {
  const random = seeded(options.seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const lines: SpreadLine[] = [];
  for (let i = 0; i < options.count; i++) {
    const roll = random();
    if (roll < 0.02) {
      const category = pick(options.categories);
      const body = JSON.stringify({
        name: category.name,
        status: category.status,
        description: `Edited by the spread bench, request ${i} of seed ${options.seed}.`,
      });
      lines.push(`PUT /api/categories/${category.id} ${body}`);
      continue;
    }
    const query = new URLSearchParams({ page: String(1 + Math.floor(random() * (options.maxPage ?? 2000))), per_page: '15' });
    query.set('sort', pick(options.sorts));
    query.set('direction', random() < 0.5 ? 'asc' : 'desc');
    const filter = random();
    if (filter < 0.3) query.set('q[customer_id]', String(pick(options.customerIds)));
    else if (filter < 0.4) query.set('q[agency_name]', pick(options.agencyNames));
    query.set('include', 'customer,category');
    lines.push(`GET /api/contests?${query}`);
  }
  return lines;
}

/** What one spread run measured. */
export interface SpreadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  hits: number;
  misses: number;
  failures: number;
  socketErrors: number;
}

/**
 * Runs the spread against `base` with wrk (tests/bench/spread.lua cycles through the lines in
 * order) for `seconds` over `connections` connections and reads its figures and cache counts.
 */
export async function runSpread(
  base: string,
  headers: Record<string, string>,
  lines: readonly SpreadLine[],
  connections: number,
  seconds: number,
): Promise<SpreadResult> {
  const file = path.join(os.tmpdir(), `awards-console-spread-${process.pid}.txt`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(headers.cookie ?? '')?.[1] ?? '';
  const args = [
    '-t1',
    `-c${connections}`,
    `-d${Math.max(1, Math.round(seconds))}s`,
    '--latency',
    '--timeout',
    '10s',
    '-s',
    path.resolve('tests/bench/spread.lua'),
  ];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push(base);
  try {
    const output = await spawnWrk(args, { SPREAD_FILE: file, SPREAD_XSRF: xsrf });
    const time = (re: RegExp) => {
      const match = re.exec(output);
      return match ? Math.round(wrkMs(match[1]!, match[2]!) * 10) / 10 : 0;
    };
    const total = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(output);
    const counts = /SPREAD hits (\d+) misses (\d+) failures (\d+)/.exec(output);
    if (!total || !counts || !/^\s+99%/m.test(output)) throw new Error(`unexpected wrk output: ${output}`);
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
    return {
      requests: Number(total[1]),
      rps: Math.round(Number(total[1]) / (wrkMs(total[2]!, total[3]!) / 1000)),
      p50: time(/^\s+50%\s+([\d.]+)(us|ms|s|m)\s*$/m),
      p99: time(/^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$/m),
      max: time(/^[ \t]+Latency[ \t]+\S+[ \t]+\S+[ \t]+([\d.]+)(us|ms|s|m)/m),
      hits: Number(counts[1]),
      misses: Number(counts[2]),
      failures: Number(counts[3]),
      socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** CPU seconds (user + system) a process has used so far (Linux /proc), 0 when it cannot be read. */
function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}

/**
 * The CPU time the server process and the database spent, read before and after a run: on a busy
 * machine requests per second say more about the other load than about the server; CPU time per
 * request does not. The database's share is its backends serving `databaseName` (PostgreSQL on
 * this machine); for PGlite it runs inside the server process.
 */
export async function cpuMeter(serverPid: number, databaseUrl: string | undefined): Promise<() => Promise<{ serverSeconds: number; databaseSeconds: number }>> {
  const backends = async (): Promise<number[]> => {
    if (!databaseUrl) return [];
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const result = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
      return result.rows.map((row) => row.pid);
    } finally {
      await client.end();
    }
  };
  const before = new Map<number, number>();
  for (const pid of await backends()) before.set(pid, cpuSeconds(pid));
  const server = cpuSeconds(serverPid);
  return async () => {
    let database = 0;
    for (const pid of await backends()) database += cpuSeconds(pid) - (before.get(pid) ?? 0);
    return { serverSeconds: cpuSeconds(serverPid) - server, databaseSeconds: database };
  };
}
