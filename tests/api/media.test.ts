import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeSettings } from '../../src/features/media/server/settings.js';
import { FsMediaStore, type MediaStore, openMediaStore } from '../../src/features/media/server/store.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { addCategory, addContests, addCustomer, addExam, addJuror, jurorClient } from '../helpers/judging-fixture.js';
import { startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

const png = (width = 64, height = 40) =>
  sharp({ create: { width, height, channels: 3, background: '#c0392b' } })
    .png()
    .toBuffer();
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** POST /api/media as a browser sends it: one multipart part `file`, the XSRF pair and the token. */
async function upload(app: FastifyInstance, client: TestClient, bytes: Buffer, filename: string, declared: string, query = '') {
  const boundary = `----media${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${declared}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await app.inject({
    method: 'POST',
    url: `/api/media${query}`,
    payload,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      cookie: `XSRF-TOKEN=${client.xsrf}`,
      'x-xsrf-token': client.xsrf,
      ...(client.token ? { authorization: `Bearer ${client.token}` } : {}),
    },
  });
  return { status: res.statusCode, body: res.json() as any };
}

/** GET of a file's bytes (with the client's token when it has one). */
async function fetchBytes(app: FastifyInstance, url: string, client?: TestClient) {
  const res = await app.inject({ method: 'GET', url, headers: client?.token ? { authorization: `Bearer ${client.token}` } : {} });
  return { status: res.statusCode, bytes: res.rawPayload, headers: res.headers };
}

describe.each(testDatabaseKinds())('media on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let mediaDir: string;
  let contests: number[];
  let otherContest: number;
  let customer: number;
  const saved = { ...process.env };

  beforeAll(async () => {
    mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-test-'));
    // Media reads its settings from the environment: small limits to test them.
    Object.assign(process.env, { MEDIA_URL: `file://${mediaDir}`, MEDIA_MAX_MB: '1', MEDIA_MAX_PER_ENTRY: '3', MEDIA_MAX_PIXELS: '4000000' });
    t = await startTestApp(kind);
    admin = await new TestClient(t.app).init();
    await admin.signIn();
    const category = await addCategory(t.app, 'Media');
    customer = await addCustomer(t.app, 1, 'Acme');
    contests = await addContests(t.app, customer, category, 2);
    otherContest = (await addContests(t.app, await addCustomer(t.app, 2, 'Other'), category, 1))[0]!;
  });
  afterAll(async () => {
    process.env = saved;
    await t?.close();
    fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  const storedFiles = () =>
    fs
      .readdirSync(mediaDir, { recursive: true })
      .filter((name) => !String(name).startsWith('.uploading') && fs.statSync(path.join(mediaDir, String(name))).isFile());

  it('stores a PNG with its hash, size and a thumbnail, and serves it with its type and nosniff', async () => {
    const bytes = await png(900, 300);
    const res = await upload(t.app, admin, bytes, 'poster.png', 'image/png');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'image/png', size: bytes.length, width: 900, height: 300, name: 'poster.png', contest_id: null });
    expect(res.body.data.value).toBe(`/api/media/${res.body.data.id}`);
    const row = (await t.app.db
      .selectFrom('media' as never)
      .selectAll()
      .where('id' as never, '=', res.body.data.id as never)
      .executeTakeFirstOrThrow()) as any;
    expect(row.sha256).toBe(sha(bytes));
    const file = await fetchBytes(t.app, `/api/media/${res.body.data.id}`, admin);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(sha(file.bytes)).toBe(sha(bytes));
    const thumb = await fetchBytes(t.app, `/api/media/${res.body.data.id}?variant=thumb`, admin);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumb.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([480, 160]);
    const audit = await sql<{
      n: string;
    }>`select count(*) as n from audit_log where action = 'media.upload' and entity_id = ${String(res.body.data.id)}`.execute(t.app.db);
    expect(Number(audit.rows[0]!.n)).toBe(1);
  });

  it('reads the type from the content: an HTML page named .png is a 415 and nothing is kept', async () => {
    const before = storedFiles().length;
    const html = Buffer.from(`<!doctype html><html><body><script>alert(1)</script>${'x'.repeat(6000)}</body></html>`);
    const res = await upload(t.app, admin, html, 'evil.png', 'image/png');
    expect(res.status).toBe(415);
    expect(res.body.errors[0]).toMatchObject({ path: 'file', messageKey: 'media.errors.type' });
    // A JPEG named .pdf is a JPEG; a PDF is accepted without a thumbnail and sent as a download.
    const jpeg = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();
    expect((await upload(t.app, admin, jpeg, 'x.pdf', 'application/pdf')).body.data.type).toBe('image/jpeg');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    const stored = await upload(t.app, admin, pdf, 'brief.pdf', 'application/pdf');
    expect(stored.status).toBe(201);
    expect(stored.body.data).toMatchObject({ type: 'application/pdf', thumbnail_url: null, width: null });
    const file = await fetchBytes(t.app, `/api/media/${stored.body.data.id}`, admin);
    expect(file.headers['content-disposition']).toMatch(/^attachment/);
    expect(storedFiles().length).toBe(before + 3); // the JPEG and its thumbnail, the PDF
    expect((await upload(t.app, admin, Buffer.alloc(0), 'empty.png', 'image/png')).status).toBe(415);
    // Only multipart is taken here; JSON is a 400, never a 5xx.
    expect((await admin.post('/api/media', { file: 'x' })).status).toBe(400);
    expect((await admin.get('/api/media/1/content?variant=file&user=1&expires=99999999999&signature=' + 'A'.repeat(43))).status).toBe(404);
  });

  it('refuses a file over the size limit (413) and an image over the pixel limit (413)', async () => {
    const big = Buffer.concat([await png(), randomBytes(1.5 * 1024 * 1024)]);
    const res = await upload(t.app, admin, big, 'big.png', 'image/png');
    expect(res.status).toBe(413);
    expect(res.body.errors[0]).toMatchObject({ messageKey: 'media.errors.too_large', params: { limit: 1 } });
    // 2500 × 2000 = 5 M pixels: small as a PNG, too many to decode.
    const wide = await sharp({ create: { width: 2500, height: 2000, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const pixels = await upload(t.app, admin, wide, 'wide.png', 'image/png');
    expect(pixels.status).toBe(413);
    expect(pixels.body.errors[0].messageKey).toBe('media.errors.pixels');
    expect(fs.readdirSync(path.join(mediaDir, '.uploading'))).toEqual([]);
  });

  it('limits the files per entry (409), counted before reading', async () => {
    const entry = contests[1]!;
    for (let i = 0; i < 3; i++) expect((await upload(t.app, admin, await png(), `p${i}.png`, 'image/png', `?contest=${entry}`)).status).toBe(201);
    const res = await upload(t.app, admin, await png(), 'p4.png', 'image/png', `?contest=${entry}`);
    expect(res.status).toBe(409);
    expect(res.body.errors[0].messageKey).toBe('media.errors.too_many');
    expect((await upload(t.app, admin, await png(), 'x.png', 'image/png', '?contest=999999')).status).toBe(404);
  });

  it('shows a file to admins and to the jurors assigned to its entry in an open exam, no one else', async () => {
    const entry = contests[0]!;
    const uploaded = await upload(t.app, admin, await png(), 'kv.png', 'image/png', `?contest=${entry}`);
    const id = uploaded.body.data.id as number;
    const category = await addCategory(t.app, 'Media judging');
    const [judged] = await addContests(t.app, customer, category, 1);
    const exam = await addExam(admin, category);
    const draftExam = await addExam(admin, await addCategory(t.app, 'Media draft'), 1, false);
    const assigned = await addJuror(t.app, 1, null);
    const draftOnly = await addJuror(t.app, 2, null);
    const stranger = await addJuror(t.app, 3, null);
    await sql`update media set contest_id = ${judged} where id = ${id}`.execute(t.app.db);
    await sql`insert into assignments (exam_id, contest_id, jury_id, status) values (${exam}, ${judged}, ${assigned}, 'assigned'), (${draftExam}, ${judged}, ${draftOnly}, 'assigned')`.execute(
      t.app.db,
    );
    const jurors = {
      assigned: await jurorClient(t.app, assigned),
      draftOnly: await jurorClient(t.app, draftOnly),
      stranger: await jurorClient(t.app, stranger),
    };

    expect((await fetchBytes(t.app, `/api/media/${id}`, jurors.assigned)).status).toBe(200);
    expect((await fetchBytes(t.app, `/api/media/${id}`, jurors.draftOnly)).status).toBe(404);
    expect((await fetchBytes(t.app, `/api/media/${id}`, jurors.stranger)).status).toBe(404);
    expect((await fetchBytes(t.app, `/api/media/${id}`)).status).toBe(401);
    // Jurors upload nothing.
    expect((await upload(t.app, jurors.assigned, await png(), 'j.png', 'image/png')).status).toBe(403);

    // Signed links: what <img> loads without a token, for the account they were made for.
    const links = await jurors.assigned.get(`/api/media/links?ids=${id},${otherContest + 100000}`);
    expect(links.status).toBe(200);
    expect(links.body.data.map((item: any) => item.id)).toEqual([id]);
    const { url, thumbnail_url } = links.body.data[0];
    const image = await fetchBytes(t.app, url);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect((await fetchBytes(t.app, thumbnail_url)).headers['content-type']).toBe('image/webp');
    expect((await fetchBytes(t.app, url.replace(/signature=.{4}/, 'signature=AAAA'))).status).toBe(404);
    expect((await fetchBytes(t.app, url.replace(/expires=\d+/, 'expires=1000'))).status).toBe(404);
    expect((await jurors.stranger.get(`/api/media/links?ids=${id}`)).body.data).toEqual([]);
    // Taken off the entry: the old link no longer opens it.
    await sql`delete from assignments where jury_id = ${assigned}`.execute(t.app.db);
    expect((await fetchBytes(t.app, url)).status).toBe(404);
  });

  it("lets an entrant upload to their own entry, see it, and nobody else's", async () => {
    const hasEntrants =
      (
        await sql<{ n: number }>`select count(*)::int as n from information_schema.columns where table_name = 'users' and column_name = 'customer_id'`.execute(
          t.app.db,
        )
      ).rows[0]!.n > 0;
    if (!hasEntrants) return;
    // Every submittor has an entrant account (the entrants feature keeps them): give it a password.
    const password = await hashPassword('entrant-password-42', { N: 2 ** 10, r: 8, p: 1 });
    const account = await sql<{
      email: string;
    }>`update users set password_hash = ${password}, invited_at = null where customer_id = ${customer} and role = 'entrant' returning email`.execute(t.app.db);
    const email = account.rows[0]?.email ?? 'entrant-media@entrant.test';
    if (!account.rows[0])
      await sql`insert into users (email, name, password_hash, role, customer_id) values (${email}, 'Entrant', ${password}, 'entrant', ${customer})`.execute(
        t.app.db,
      );
    const entrant = await new TestClient(t.app).init();
    await entrant.signIn(email, 'entrant-password-42');
    const own = await upload(t.app, entrant, await png(), 'mine.png', 'image/png', `?contest=${contests[0]}`);
    expect(own.status).toBe(201);
    expect((await upload(t.app, entrant, await png(), 'theirs.png', 'image/png', `?contest=${otherContest}`)).status).toBe(404);
    const theirs = await upload(t.app, admin, await png(), 'theirs.png', 'image/png', `?contest=${otherContest}`);
    expect((await fetchBytes(t.app, `/api/media/${own.body.data.id}`, entrant)).status).toBe(200);
    expect((await fetchBytes(t.app, `/api/media/${theirs.body.data.id}`, entrant)).status).toBe(404);
    // An unattached upload is its uploader's until an entry names it.
    const loose = await upload(t.app, entrant, await png(), 'loose.png', 'image/png');
    expect(loose.body.data.contest_id).toBeNull();
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/media/${own.body.data.id}`,
          headers: { cookie: `XSRF-TOKEN=${entrant.xsrf}`, 'x-xsrf-token': entrant.xsrf, authorization: `Bearer ${entrant.token}` },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/media/${loose.body.data.id}`,
          headers: { cookie: `XSRF-TOKEN=${entrant.xsrf}`, 'x-xsrf-token': entrant.xsrf, authorization: `Bearer ${entrant.token}` },
        })
      ).statusCode,
    ).toBe(204);
    expect((await fetchBytes(t.app, `/api/media/${loose.body.data.id}`, admin)).status).toBe(404);
  });
});

/** The store contract every implementation keeps: files and buffers in, bytes out, deletes, unsafe keys refused. */
async function storeContract(store: MediaStore) {
  const temp = path.join(store.tempDir, 'upload');
  fs.writeFileSync(temp, 'hello');
  await store.putFile('2026/11/a.png', temp, 5, 'image/png');
  expect(fs.existsSync(temp)).toBe(false);
  const got = await store.get('2026/11/a.png');
  expect(got.size).toBe(5);
  expect(Buffer.concat(await got.stream.toArray()).toString()).toBe('hello');
  await store.putBuffer('2026/11/a.png.thumb.webp', Buffer.from('thumb'), 'image/webp');
  expect(Buffer.concat(await (await store.get('2026/11/a.png.thumb.webp')).stream.toArray()).toString()).toBe('thumb');
  await store.delete('2026/11/a.png');
  await store.delete('2026/11/a.png');
  await expect(store.get('2026/11/a.png')).rejects.toThrow();
  await expect(store.putBuffer('../escape', Buffer.from('x'), 'image/png')).rejects.toThrow(/Unsafe/);
}

describe('media store interface', () => {
  it('the filesystem store keeps the contract', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-store-'));
    const store = await new FsMediaStore(dir).init();
    await storeContract(store);
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // No maintained S3-compatible server installs here (s3rver is unmaintained, fauxqs needs Node 22):
  // this checks the requests the S3 store sends (path-style, SigV4-signed, known length) against a
  // recorder keeping objects in memory, not S3's behaviour.
  it('the S3 store keeps the contract with path-style, signed requests of known length', async () => {
    const objects = new Map<string, Buffer>();
    const seen: Array<{ method: string; url: string; authorization: string; length: string | undefined }> = [];
    const recorder = http.createServer(async (req, res) => {
      const body = Buffer.concat(await req.toArray());
      seen.push({ method: req.method!, url: req.url!, authorization: String(req.headers.authorization), length: req.headers['content-length'] });
      if (req.method === 'PUT') objects.set(req.url!, body);
      if (req.method === 'DELETE') objects.delete(req.url!);
      const found = objects.get(req.url!);
      if (req.method === 'GET' && !found) return res.writeHead(404).end();
      res.writeHead(req.method === 'DELETE' ? 204 : 200, found && req.method === 'GET' ? { 'content-length': String(found.length) } : {});
      res.end(req.method === 'GET' ? found : undefined);
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    const port = (recorder.address() as { port: number }).port;
    const settings = storeSettings(
      {
        MEDIA_URL: `s3://awards/media?endpoint=http://127.0.0.1:${port}&region=eu-west-1`,
        MEDIA_S3_ACCESS_KEY_ID: 'key',
        MEDIA_S3_SECRET_ACCESS_KEY: 'secret',
      },
      '/data',
    );
    const store = await openMediaStore(settings);
    expect(store.kind).toBe('s3');
    try {
      await storeContract(store);
    } finally {
      await store.close();
      recorder.close();
    }
    const put = seen.find((request) => request.method === 'PUT')!;
    expect(put.url).toBe('/awards/media/2026/11/a.png');
    expect(put.length).toBe('5');
    expect(put.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=key\/\d{8}\/eu-west-1\/s3\/aws4_request, SignedHeaders=.*, Signature=[0-9a-f]{64}$/);
  });
});
