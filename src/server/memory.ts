import v8 from 'node:v8';

/**
 * V8 settings for a server on embedded PGlite, where one process holds the database too: DESIGN §8
 * gives it 300 MB of resident memory under load. Set before PGlite's wasm is compiled (the wasm
 * flag is read when a module compiles; the heap's growth each time its limit is recomputed).
 *
 * - `--liftoff-only`: PGlite's wasm runs on V8's baseline compiler only. Its optimising tier
 *   compiled the hot functions again and kept that code and the compiler's memory: 49 MB of an
 *   idle server's 285 MB, and a 128 MB spike at start. PGlite's spread of 100,000 contests went
 *   from about 430 to 390 requests/s (DESIGN §8 asks 200).
 * - `--heap-growing-percent=25`: after a full collection the heap may grow by a quarter of what it
 *   kept, where V8 on a large machine lets it grow fourfold: under the spread the server's heap
 *   went from 100 MB to 190 MB of mostly garbage between two collections.
 *
 * With PGlite's shared buffers at 16MB (kysely.ts) and a 4 MB list cache (config.ts), the server's
 * largest RSS under the spread of 100,000 contests (`BENCH_DATA_DIR=... BENCH_CONTESTS=spread npm
 * run bench -- contests`) went from 376-406 MB to 281-290 MB, at 359-373 requests/s. A server on
 * PostgreSQL keeps V8's defaults (more memory, less collector time).
 */
export function keepEmbeddedServerSmall(): void {
  v8.setFlagsFromString('--liftoff-only');
  v8.setFlagsFromString('--heap-growing-percent=25');
}
