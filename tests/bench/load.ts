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
 * Sends GET requests to `url` from `connections` concurrent loops (each waits for its answer
 * before the next, like autocannon's connections) for `seconds`, after a short warm-up, and
 * measures each latency. A non-200 answer counts as an error.
 */
export async function runLoad(url: string, headers: Record<string, string>, connections = 10, seconds = 8, warmupSeconds = 1): Promise<LoadResult> {
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
