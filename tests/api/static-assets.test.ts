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

describe('the built HTML shells', () => {
  it("are written per language with the locale files' title and noscript text and <html lang>", () => {
    const publicDir = path.join(root, 'dist', 'public');
    for (const [language, file] of [
      ['en', 'index.html'],
      ['id', 'index.id.html'],
      ['ms', 'index.ms.html'],
    ] as const) {
      const texts = JSON.parse(fs.readFileSync(path.join(root, 'locales', language, 'common.json'), 'utf8'));
      const html = fs.readFileSync(path.join(publicDir, file), 'utf8');
      expect(html, file).toContain(`<html lang="${language}">`);
      // `{{product}}` is the default name in the shell (the app sets the programme's own).
      const product = (text: string) => text.replace('{{product}}', 'Awards CMS');
      expect(html, file).toContain(`<title>${product(texts.pages.titles.awardsCms)}</title>`);
      expect(html, file).toContain(`<noscript>${product(texts.common.noscript)}</noscript>`);
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
    fs.writeFileSync(path.join(publicDir, 'index.html'), '<!doctype html><html lang="en"><title>Awards CMS</title><div id="root"></div>');
    fs.writeFileSync(path.join(publicDir, 'index.ms.html'), '<!doctype html><html lang="ms"><title>Awards CMS</title><div id="root"></div>');
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

  it('sends the HTML shell in the language of ?lng=, the saved cookie or Accept-Language, English when it has no file for it', async () => {
    const shell = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
    const malay = await shell('/manage-contest', { 'accept-language': 'ms-MY,ms;q=0.9,en;q=0.8' });
    expect(malay.statusCode).toBe(200);
    expect(malay.body).toContain('<html lang="ms">');
    expect(malay.headers['content-language']).toBe('ms');
    expect(String(malay.headers.vary)).toContain('Accept-Language');
    expect((await shell('/', { cookie: 'i18nextLng=ms', 'accept-language': 'en' })).body).toContain('<html lang="ms">');
    expect((await shell('/?lng=en', { cookie: 'i18nextLng=ms' })).body).toContain('<html lang="en">');
    // No index.id.html in this folder: the English shell.
    const indonesian = await shell('/dashboard', { 'accept-language': 'id' });
    expect(indonesian.body).toContain('<html lang="en">');
    expect(indonesian.headers['content-language']).toBe('en');
  });
});
