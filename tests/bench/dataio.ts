import pg from 'pg';
import { IMPORT_PARAMS } from '../../src/server/auth/password.js';
import { rssMb, startBenchServer } from './bench-server.js';
import type { BenchContext } from './scenarios.js';

/**
 * The data import and export targets on PostgreSQL (BENCH_DATABASE_URL, seeded with `npm run seed -- --contests
 * 1000000`): the CSV export of every contest (first byte ≤ 1 s, ≥ 50,000 rows/s, server RSS growth
 * ≤ 50 MB) and the import of 100,000 customers from CSV with passwords (≤ 60 s end to end).
 */
export async function runDataioBench(context: BenchContext): Promise<boolean> {
  if (!context.postgresUrl) {
    context.log('dataio skipped: set BENCH_DATABASE_URL to a PostgreSQL database seeded with npm run seed -- --contests 1000000.');
    return true;
  }
  const server = await startBenchServer({ kind: 'postgres', url: context.postgresUrl });
  let ok = true;
  try {
    // BENCH_DATAIO=import or =export runs one half (the export of a million rows is long on a busy machine).
    const only = process.env.BENCH_DATAIO;
    if (only !== 'import') ok = (await measureExport(server, context)) && ok;
    if (only !== 'export') ok = (await measureImport(server, context)) && ok;
  } finally {
    await server.stop();
  }
  return ok;
}

async function measureExport(server: Awaited<ReturnType<typeof startBenchServer>>, context: BenchContext): Promise<boolean> {
  {
    // Export: read the stream as a browser would, sampling the server's memory as it goes.
    const rssBefore = rssMb(server.pid);
    let rssPeak = rssBefore;
    const started = performance.now();
    const res = await fetch(`${server.base}/api/contests/export?format=csv`, { headers: server.headers });
    const reader = res.body!.getReader();
    let firstByte = 0;
    let bytes = 0;
    let lines = 0;
    let lastSample = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!firstByte) firstByte = performance.now() - started;
      bytes += value.byteLength;
      // Buffer#indexOf (native) rather than a JS loop over every byte: the bench must not be the bottleneck.
      const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      if (performance.now() - lastSample > 250) {
        rssPeak = Math.max(rssPeak, rssMb(server.pid));
        lastSample = performance.now();
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const total = Number(res.headers.get('x-total-count'));
    const rate = total / seconds;
    const growth = rssPeak - rssBefore;
    context.log(
      `export: ${total} contests as CSV (${(bytes / 1e6).toFixed(0)} MB, ${lines} lines incl. quoted breaks) in ${seconds.toFixed(1)} s: first byte ${firstByte.toFixed(0)} ms (target ≤ 1000), ${Math.round(rate)} rows/s (target ≥ 50,000), server RSS ${rssBefore.toFixed(0)} → peak ${rssPeak.toFixed(0)} MB, growth ${growth.toFixed(0)} MB (target ≤ 50)  [${context.command}]`,
    );
    return firstByte <= 1000 && rate >= 50_000 && growth <= 50;
  }
}

async function measureImport(server: Awaited<ReturnType<typeof startBenchServer>>, context: BenchContext): Promise<boolean> {
  {
    // Import: 100,000 customers with passwords, all-or-nothing, upload to done.
    const stamp = Date.now();
    const lines100k = ['Email,Name,Company,Password,Max Entries'];
    for (let n = 0; n < 100_000; n++) lines100k.push(`bench-${stamp}-${n}@import.example,Imported ${n},Agency ${n % 500},Initial-pass-${n},5`);
    const file = Buffer.from(`${lines100k.join('\n')}\n`);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(server.headers.cookie ?? '')?.[1] ?? '';
    const write = { ...server.headers, 'x-xsrf-token': xsrf };
    const importStart = performance.now();
    const upload = await fetch(`${server.base}/api/imports?entity=customer&filename=bench.csv`, {
      method: 'POST',
      headers: { ...write, 'content-type': 'application/octet-stream' },
      body: file,
    });
    const { data } = (await upload.json()) as { data: { id: number; mapping: string[] } };
    await fetch(`${server.base}/api/imports/${data.id}/start`, {
      method: 'POST',
      headers: { ...write, 'content-type': 'application/json' },
      body: JSON.stringify({ mapping: data.mapping, mode: 'all' }),
    });
    let job: Record<string, unknown> = {};
    // When each phase was first seen by the status poll (seconds since the upload began).
    const phases = new Map<string, number>([['upload', 0]]);
    let unavailable = 0;
    phases.set('started', (performance.now() - importStart) / 1000);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const res = await fetch(`${server.base}/api/imports/${data.id}`, { headers: server.headers });
      const answer = (await res.json()) as { data?: Record<string, unknown> };
      // A 503 (no database connection within 2 s on a saturated machine) is counted and asked again, as the browser does.
      if (res.status === 503) {
        unavailable++;
        continue;
      }
      if (!answer.data) throw new Error(`import status: ${JSON.stringify(answer)}`);
      job = answer.data;
      if (typeof job.phase === 'string' && !phases.has(job.phase)) phases.set(job.phase, (performance.now() - importStart) / 1000);
      if (job.status !== 'running') break;
    }
    const importSeconds = (performance.now() - importStart) / 1000;
    const timeline = [...phases].map(([phase, at]) => `${phase} ${at.toFixed(1)} s`).join(', ');
    const hashes = await storedHashes(`bench-${stamp}-%@import.example`);
    const cost = `scrypt N=2^${Math.log2(IMPORT_PARAMS.N)}, r=${IMPORT_PARAMS.r}, p=${IMPORT_PARAMS.p}`;
    context.log(
      `import: 100,000 customers from CSV (${(file.length / 1e6).toFixed(1)} MB) with passwords hashed (${cost}): ${job.status}, ${String(job.created_rows)} created in ${importSeconds.toFixed(1)} s end to end (target ≤ 60); phases first seen at: ${timeline}; status polls answered 503: ${unavailable}; stored hashes: ${hashes}  [${context.command}]`,
    );
    return job.status === 'done' && importSeconds <= 60 && hashes.startsWith('100000 distinct');
  }
}

/** How many of the imported customers carry a distinct scrypt hash, and the parameters stored in them. */
async function storedHashes(emailPattern: string): Promise<string> {
  const client = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ distinct_hashes: string; params: string | null }>(
      `select count(distinct password_hash) as distinct_hashes, string_agg(distinct split_part(password_hash, '$', 1) || ' N=' || split_part(password_hash, '$', 2) || ' r=' || split_part(password_hash, '$', 3), '; ') as params
         from customers where email like $1`,
      [emailPattern],
    );
    return `${rows[0]?.distinct_hashes ?? 0} distinct (${rows[0]?.params ?? 'none'})`;
  } finally {
    await client.end();
  }
}
