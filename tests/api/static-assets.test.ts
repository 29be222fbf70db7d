import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

describe('the built client', () => {
  it('has a brotli and a gzip copy of every script, stylesheet and translation of 1 KB or more, each the same bytes', () => {
    const publicDir = path.join(root, 'dist', 'public');
    expect(fs.existsSync(publicDir), 'run "node build.mjs" first (npm test does)').toBe(true);
    const texts = filesUnder(publicDir).filter((file) => /\.(js|css)$/.test(file) && fs.statSync(file).size >= 1024);
    expect(texts.length).toBeGreaterThan(10);
    for (const file of texts) {
      const original = fs.readFileSync(file);
      expect(zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`)).equals(original), `${file}.br`).toBe(true);
      expect(zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).equals(original), `${file}.gz`).toBe(true);
    }
  });
});

describe('serving the client', () => {
  const script = `export const text = ${JSON.stringify('Awards Console '.repeat(200))};\n`;
  let publicDir: string;
  let t: TestApp;

  beforeAll(async () => {
    publicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'awards-static-'));
    fs.mkdirSync(path.join(publicDir, 'assets'));
    fs.writeFileSync(path.join(publicDir, 'index.html'), '<!doctype html><title>Awards CMS</title><div id="root"></div>');
    const file = path.join(publicDir, 'assets', 'main-TEST.js');
    fs.writeFileSync(file, script);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(script));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(script));
    t = await startTestApp('pglite', { PUBLIC_DIR: publicDir });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(publicDir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('sends the brotli copy to a browser that accepts it, else gzip, else the file itself', async () => {
    const br = await get('/assets/main-TEST.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await get('/assets/main-TEST.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/main-TEST.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);

    for (const res of [br, gz, plain]) {
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(String(res.headers['content-type'])).toMatch(/javascript/);
    }
  });

  it('answers a client route with index.html, never cached', async () => {
    const res = await get('/manage-contest', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});
