import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import sharp from 'sharp';
import { rssMb, startBenchServer } from './bench-server.js';
import type { BenchContext } from './scenarios.js';

const MB = 1024 * 1024;

/** A ~10 MB PNG of noise (does not compress): the thumbnail path decodes all of it. */
async function noisePng(): Promise<Buffer> {
  const side = 1820;
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** A 10 MB PDF-headed file: the streaming path alone (no decode). */
function bigPdf(): Buffer {
  return Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(10 * MB - 9)]);
}

/**
 * Ten parallel 10 MB uploads (`POST /api/media`, multipart) to a real server on PGlite in a fresh
 * folder: throughput (MB/s, wall clock from the first request to the last answer) and the server's
 * RSS (sampled every 50 ms) for PDFs (streamed, hashed, sniffed) and for PNGs (plus the thumbnail's
 * decode). The figures are reported, not gated: they depend on the disk and the machine's load.
 */
export async function runMediaBench(context: BenchContext): Promise<boolean> {
  const dataDir = context.pgliteDir('media');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const server = await startBenchServer({ kind: 'pglite', dataDir });
  try {
    const send = async (bytes: Buffer, name: string, type: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
      const res = await fetch(`${server.base}/api/media`, {
        method: 'POST',
        headers: { ...server.headers, 'x-xsrf-token': /XSRF-TOKEN=([^;]+)/.exec(server.headers.cookie!)![1]! },
        body: form,
      });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    // Warm-up: one small upload (the route, sharp and file-type loaded).
    await send(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .png()
        .toBuffer(),
      'warm.png',
      'image/png',
    );
    for (const [label, make, type] of [
      ['PDF', async () => bigPdf(), 'application/pdf'],
      ['PNG (with thumbnail)', noisePng, 'image/png'],
    ] as const) {
      const files = await Promise.all(Array.from({ length: 10 }, () => make()));
      const total = files.reduce((sum, file) => sum + file.length, 0);
      global.gc?.();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const rssBefore = rssMb(server.pid);
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, rssMb(server.pid));
      }, 50);
      const started = performance.now();
      await Promise.all(files.map((file, i) => send(file, `file-${i}.${type === 'application/pdf' ? 'pdf' : 'png'}`, type)));
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      rssPeak = Math.max(rssPeak, rssMb(server.pid));
      context.log(
        `media: ten parallel ${(total / 10 / MB).toFixed(1)} MB ${label} uploads: ${(total / MB).toFixed(0)} MB in ${seconds.toFixed(2)} s = ${(total / MB / seconds).toFixed(0)} MB/s; server RSS ${rssBefore.toFixed(0)} → peak ${rssPeak.toFixed(0)} MB (growth ${(rssPeak - rssBefore).toFixed(0)} MB)  [${context.command}]`,
      );
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return true;
}
