import fs from 'node:fs';
import { type BenchServer, type BenchTarget, rssMb, startBenchServer } from './bench-server.js';
import type { BenchContext } from './scenarios.js';

/** The soak's settings, from the environment (with defaults). */
export const SOAK = {
  minutes: Number(process.env.SOAK_MINUTES ?? 10),
  postgresAdmins: Number(process.env.SOAK_ADMINS_PG ?? 25),
  pgliteAdmins: Number(process.env.SOAK_ADMINS_PGLITE ?? 10),
  killRounds: Number(process.env.SOAK_KILL_ROUNDS ?? 50),
  /** Pause of a simulated admin between two requests (reading the screen), ms, drawn up to this. */
  thinkMs: Number(process.env.SOAK_THINK_MS ?? 200),
};

const RSS_SAMPLE_MS = 5_000;
const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Least-squares slope of (minute, MB) points: MB per minute. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / sxx;
}

/** Each whole minute's lowest sample: where RSS sits after the heap has been collected. */
function minuteLows(points: Array<[number, number]>): Array<[number, number]> {
  const lows = new Map<number, [number, number]>();
  for (const point of points) {
    const minute = Math.floor(point[0]);
    const low = lows.get(minute);
    if (!low || point[1] < low[1]) lows.set(minute, point);
  }
  return [...lows.values()].sort((a, b) => a[0] - b[0]);
}

/** One entity the admins work on: how to make a create and an update body. */
interface Workload {
  endpoint: string;
  create(tag: string): Record<string, unknown>;
  update(tag: string): Record<string, unknown>;
  /** The field an acknowledged write is checked by afterwards. */
  field: string;
  filters: string[];
}

const WORKLOADS: Workload[] = [
  {
    endpoint: 'categories',
    create: (tag) => ({ name: `Soak ${tag}`, description: `Soak category ${tag}, kept or deleted on purpose.`, status: 'active' }),
    update: (tag) => ({ name: `Soak ${tag}`, description: `Soak category edited ${tag}.`, status: Math.random() < 0.5 ? 'active' : 'inactive' }),
    field: 'name',
    filters: ['status=active', 'status=inactive', 'search=soak', 'search=edited', 'sort=name', 'sort=created_at&direction=desc'],
  },
  {
    endpoint: 'companies',
    create: (tag) => ({ name: `Soak company ${tag}` }),
    update: (tag) => ({ name: `Soak company ${tag}`, is_active: Math.random() < 0.5 }),
    field: 'name',
    filters: ['status=active', 'status=inactive', 'search=soak', 'sort=name&direction=desc', 'per_page=50'],
  },
];

/** What one run saw. */
interface SoakTally {
  requests: number;
  byStatus: Map<number, number>;
  serverErrors: string[];
  /** Samples of writes refused for another reason than a stale If-Match or a vanished record. */
  refusals: string[];
  networkErrors: number;
  latencies: Array<[at: number, ms: number]>;
  /** Per endpoint and id: the value of the last acknowledged write, or null once deleted. */
  acknowledged: Map<string, string | null>;
  writes: number;
}

/** A client of the bench server: JSON, the session's token, the XSRF header on writes. */
function clientOf(server: BenchServer, tally: SoakTally, started: number) {
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(server.headers.cookie ?? '')?.[1] ?? '';
  return async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
    const t0 = performance.now();
    try {
      const res = await fetch(`${server.base}${path}`, {
        method,
        headers: {
          ...server.headers,
          ...(method === 'GET' ? {} : { 'x-xsrf-token': xsrf }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...extra,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await res.text();
      tally.requests++;
      tally.latencies.push([(t0 - started) / 60_000, performance.now() - t0]);
      tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);
      if (res.status >= 500) tally.serverErrors.push(`${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
      else if (res.status >= 400 && ![404, 409].includes(res.status) && tally.refusals.length < 5)
        tally.refusals.push(`${method} ${path} ${JSON.stringify(body)} → ${res.status} ${text.slice(0, 300)}`);
      return { status: res.status, etag: res.headers.get('etag'), body: text ? (JSON.parse(text) as any) : undefined };
    } catch (error) {
      tally.networkErrors++;
      return { status: 0, etag: null, body: { error: (error as Error).message } };
    }
  };
}

/**
 * One simulated admin until `until`: browses lists (pages, sorts), filters and searches, opens a
 * record, creates, edits its own records with If-Match (refetching after a 409) and deletes them.
 * Every acknowledged write is remembered to be checked afterwards.
 */
async function simulatedAdmin(n: number, call: ReturnType<typeof clientOf>, tally: SoakTally, until: number) {
  const mine: Array<{ workload: Workload; id: number }> = [];
  let sequence = 0;
  while (Date.now() < until) {
    const workload = pick(WORKLOADS);
    const roll = Math.random();
    if (roll < 0.35) {
      await call('GET', `/api/${workload.endpoint}?page=${1 + Math.floor(Math.random() * 5)}`);
    } else if (roll < 0.55) {
      await call('GET', `/api/${workload.endpoint}?${pick(workload.filters)}`);
    } else if (roll < 0.65) {
      const list = await call('GET', `/api/${workload.endpoint}?per_page=20`);
      const row = list.status === 200 && list.body.data.length ? pick(list.body.data as Array<{ id: number }>) : undefined;
      if (row) await call('GET', `/api/${workload.endpoint}/${row.id}`);
    } else if (roll < 0.78 || mine.length === 0) {
      const tag = `a${n}-${++sequence}-${Date.now().toString(36)}`;
      const res = await call('POST', `/api/${workload.endpoint}`, workload.create(tag));
      if (res.status === 201) {
        tally.writes++;
        mine.push({ workload, id: res.body.data.id });
        tally.acknowledged.set(`${workload.endpoint}/${res.body.data.id}`, res.body.data[workload.field]);
      }
    } else if (roll < 0.92) {
      const target = pick(mine);
      const current = await call('GET', `/api/${target.workload.endpoint}/${target.id}`);
      if (current.status !== 200) continue;
      const tag = `a${n}-${++sequence}-edit`;
      const res = await call(
        'PUT',
        `/api/${target.workload.endpoint}/${target.id}`,
        target.workload.update(tag),
        current.etag ? { 'if-match': current.etag } : {},
      );
      if (res.status === 200) {
        tally.writes++;
        tally.acknowledged.set(`${target.workload.endpoint}/${target.id}`, res.body.data[target.workload.field]);
      }
    } else {
      const index = Math.floor(Math.random() * mine.length);
      const target = mine[index]!;
      const res = await call('DELETE', `/api/${target.workload.endpoint}/${target.id}`);
      if (res.status === 204) {
        tally.writes++;
        mine.splice(index, 1);
        tally.acknowledged.set(`${target.workload.endpoint}/${target.id}`, null);
      }
    }
    await sleep(Math.random() * SOAK.thinkMs);
  }
}

/** Reads back every acknowledged write; returns those whose record is not as acknowledged. */
async function lostWrites(call: ReturnType<typeof clientOf>, acknowledged: Map<string, string | null>, field: string): Promise<string[]> {
  const lost: string[] = [];
  for (const [key, expected] of acknowledged) {
    const res = await call('GET', `/api/${key}`);
    const ok = expected === null ? res.status === 404 : res.status === 200 && res.body.data[field] === expected;
    if (!ok) lost.push(`${key}: expected ${expected === null ? 'deleted' : JSON.stringify(expected)}, got ${res.status}`);
  }
  return lost;
}

function newTally(): SoakTally {
  return { requests: 0, byStatus: new Map(), serverErrors: [], refusals: [], networkErrors: 0, latencies: [], acknowledged: new Map(), writes: 0 };
}

/** `admins` simulated admins for SOAK.minutes on one target; prints p99 and RSS per minute. */
async function soakOn(context: BenchContext, label: string, target: BenchTarget, admins: number): Promise<boolean> {
  const server = await startBenchServer(target, { LIST_CACHE_MB: process.env.LIST_CACHE_MB ?? '16' });
  const tally = newTally();
  const rss: Array<[number, number]> = [];
  try {
    const started = performance.now();
    const call = clientOf(server, tally, started);
    const until = Date.now() + SOAK.minutes * 60_000;
    const sampler = setInterval(() => {
      const mb = rssMb(server.pid);
      if (mb > 0) rss.push([(performance.now() - started) / 60_000, mb]);
    }, RSS_SAMPLE_MS);
    context.log(`\nsoak on ${label}: ${admins} simulated admins for ${SOAK.minutes} min (think time up to ${SOAK.thinkMs} ms)`);
    try {
      await Promise.all(Array.from({ length: admins }, (_, n) => simulatedAdmin(n + 1, call, tally, until)));
    } finally {
      clearInterval(sampler);
    }
    const lost = await lostWrites(clientOf(server, newTally(), started), tally.acknowledged, 'name');
    const minutes = Math.max(1, Math.ceil(SOAK.minutes));
    for (let minute = 0; minute < minutes; minute++) {
      const inMinute = tally.latencies
        .filter(([at]) => at >= minute && at < minute + 1)
        .map(([, ms]) => ms)
        .sort((a, b) => a - b);
      const memory = rss.filter(([at]) => at >= minute && at < minute + 1).map(([, mb]) => mb);
      context.log(
        `       minute ${String(minute + 1).padStart(2)}: ${inMinute.length} requests, p50 ${percentile(inMinute, 50).toFixed(1)} ms, p99 ${percentile(inMinute, 99).toFixed(1)} ms; RSS ${memory.length ? `${Math.min(...memory).toFixed(0)}-${Math.max(...memory).toFixed(0)} MB` : 'n/a'}`,
      );
    }
    const all = tally.latencies.map(([, ms]) => ms).sort((a, b) => a - b);
    const half = SOAK.minutes / 2;
    // A leak raises the low points (RSS just after a collection); the heap's collect-and-grow swings
    // (50 MB and more on PGlite) move a fit over every sample by several MB/min either way in 5 minutes.
    // Samples taken after the last whole minute (while the last requests finish) are a partial
    // minute whose one or two samples are no low point: left out, as the per-minute lines do.
    const lastHalf = rss.filter(([at]) => at >= half && at < minutes);
    const lows = minuteLows(lastHalf);
    const growth = slope(lows);
    const everySample = slope(lastHalf);
    const serverErrors = [...tally.byStatus].filter(([status]) => status >= 500).reduce((s, [, n]) => s + n, 0);
    const ok = serverErrors === 0 && tally.networkErrors === 0 && lost.length === 0 && growth <= 1;
    const statuses = [...tally.byStatus]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    context.log(
      `${ok ? 'ok    ' : 'FAILED'} ${label} soak: ${tally.requests} requests (${statuses}), ${serverErrors} 5xx, ${tally.networkErrors} network errors; ` +
        `p50 ${percentile(all, 50).toFixed(1)} ms, p99 ${percentile(all, 99).toFixed(1)} ms; ${tally.writes} acknowledged writes, ${tally.acknowledged.size} records checked after, ${lost.length} lost; ` +
        `RSS growth in the last half ${growth.toFixed(2)} MB/min over each minute's low point (target ≤ 1; ${everySample.toFixed(2)} MB/min over every sample)`,
    );
    for (const line of [...tally.serverErrors.slice(0, 5), ...tally.refusals, ...lost.slice(0, 5)]) context.log(`       ${line}`);
    context.log(`       [${context.command}]`);
    return ok;
  } finally {
    await server.stop();
  }
}

/**
 * kill -9 the PGlite server while 4 writers create records, restart it on the same data directory,
 * SOAK.killRounds times; then every acknowledged create must be there.
 */
async function killRounds(context: BenchContext, dataDir: string): Promise<boolean> {
  const acknowledged = new Map<string, string | null>();
  const startTimes: number[] = [];
  let failures = 0;
  let server = await startBenchServer({ kind: 'pglite', dataDir });
  for (let round = 1; round <= SOAK.killRounds; round++) {
    const tally = newTally();
    const call = clientOf(server, tally, performance.now());
    let killed = false;
    let roundAcks = 0;
    let sequence = 0;
    const writer = async (w: number) => {
      while (!killed) {
        const name = `Kill ${round}-${w}-${++sequence}`;
        const res = await call('POST', '/api/companies', { name });
        if (res.status === 201) {
          roundAcks++;
          acknowledged.set(`companies/${res.body.data.id}`, name);
        } else if (!killed) {
          failures++;
          context.log(`       round ${round}: POST /api/companies answered ${res.status} before the kill`);
        }
      }
    };
    const writers = [1, 2, 3, 4].map(writer);
    const deadline = Date.now() + 60_000;
    while (roundAcks === 0 && Date.now() < deadline) await sleep(10);
    await sleep(100 + Math.random() * 900);
    killed = true;
    await server.kill('SIGKILL');
    await Promise.all(writers);
    const t0 = Date.now();
    server = await startBenchServer({ kind: 'pglite', dataDir });
    startTimes.push(Date.now() - t0);
  }
  const lost = await lostWrites(clientOf(server, newTally(), performance.now()), acknowledged, 'name');
  await server.stop();
  const sorted = [...startTimes].sort((a, b) => a - b);
  const ok = lost.length === 0 && failures === 0;
  context.log(
    `${ok ? 'ok    ' : 'FAILED'} PGlite kill -9: ${SOAK.killRounds} rounds, ${acknowledged.size} acknowledged creates, ${lost.length} lost, ${failures} refused before a kill; ` +
      `restart took ${sorted[0] ?? 0}-${sorted.at(-1) ?? 0} ms (median ${sorted[Math.floor(sorted.length / 2)] ?? 0} ms)`,
  );
  for (const line of lost.slice(0, 5)) context.log(`       ${line}`);
  context.log(`       [${context.command}]`);
  return ok;
}

/**
 * The soak: simulated admins on PostgreSQL (when BENCH_DATABASE_URL is set) and on
 * PGlite for SOAK_MINUTES each, then SOAK_KILL_ROUNDS kill -9 rounds on PGlite.
 */
export async function runSoak(context: BenchContext): Promise<boolean> {
  let ok = true;
  if (context.postgresUrl && SOAK.postgresAdmins > 0)
    ok = (await soakOn(context, 'PostgreSQL', { kind: 'postgres', url: context.postgresUrl }, SOAK.postgresAdmins)) && ok;
  else context.log('PostgreSQL soak skipped: set BENCH_DATABASE_URL (or DATABASE_URL) to a database the bench may fill.');
  const soakDir = context.pgliteDir('soak');
  fs.rmSync(soakDir, { recursive: true, force: true });
  if (SOAK.pgliteAdmins > 0) ok = (await soakOn(context, 'PGlite', { kind: 'pglite', dataDir: soakDir }, SOAK.pgliteAdmins)) && ok;
  const killDir = context.pgliteDir('soak-kill');
  fs.rmSync(killDir, { recursive: true, force: true });
  if (SOAK.killRounds > 0) ok = (await killRounds(context, killDir)) && ok;
  return ok;
}
