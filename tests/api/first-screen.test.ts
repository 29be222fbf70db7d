import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEarly } from '../../src/server/early-start.js';
import { FirstScreens } from '../../src/server/first-screen/first-screens.js';
import { FirstScreenRenderer } from '../../src/server/first-screen/renderer.js';
import { warmUpPage } from '../../src/server/first-screen/warm-up.js';
import { warmListReads } from '../../src/server/routes/entity-crud.js';
import type { AuthUser } from '../../src/shared/api-contract.js';
import type { ClientEntity } from '../../src/shared/descriptor/types.js';
import type { FirstScreenInput } from '../../src/shared/first-screen.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, TestClient } from '../helpers/test-app.js';

// `GET /api/meta/first-screen`: the server renders the list screen a signed-in page shows with the
// browser's own components (src/app/ssr, built by build.mjs), which the boot script shows until the
// app's first render replaces it. It must hold the very rows the list answers, in the caller's language.

/** The text as it stands in HTML. */
const escaped = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

const locale = (language: string) =>
  JSON.parse(fs.readFileSync(`locales/${language}/common.json`, 'utf8')) as {
    common: { skipToContent: string };
    pages: { titles: { awardsCms: string } };
    entities: { contest: { title: string } };
  };

describe.each(testDatabaseKinds())('first screen of a page on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind, { DEMO_DATA: 'true' }));
    // The first request starts the render thread (this server does not start it at start); it is soon up.
    for (let waited = 0; (await firstScreen({ path: '/manage-contest' })).status !== 200; waited += 100) {
      if (waited > 20_000) throw new Error('The first-screen render thread did not start within 20 s.');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => t?.close());

  const firstScreen = (query: Record<string, string>, headers?: Record<string, string>) =>
    client.get(`/api/meta/first-screen?${new URLSearchParams(query)}`, headers);

  it('renders the rows of the page the list answers, with the frame, for the page and filters of the address', async () => {
    for (const search of ['', '?page=2', '?sort=status&direction=asc&status=approved']) {
      const answer = await firstScreen({ path: '/manage-contest', search });
      expect(answer.status, search).toBe(200);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-store');
      const list = await client.get(`/api/meta/first-list?${new URLSearchParams({ path: '/manage-contest', search })}`);
      expect(answer.headers['x-list-url'], search).toBe(list.headers['x-list-url']);
      // The row header is the category's name (entities/contest.json).
      const rows = list.body.data as Array<{ category?: { name: string } | null }>;
      expect(rows.length).toBeGreaterThan(0);
      const html = String(answer.body);
      // One row header per record, each naming its category, in the list's order.
      expect(html.match(/class="rt-TableCell rt-TableRowHeaderCell"/g)?.length, search).toBe(rows.length);
      let at = 0;
      for (const row of rows) {
        if (!row.category) continue;
        const found = html.indexOf(`scope="row">${escaped(row.category.name)}</th>`, at);
        expect(found, `${search}: ${row.category.name}`).toBeGreaterThanOrEqual(at);
        at = found + 1;
      }
      // The page title the list screen sets, for the boot script to set with the markup.
      expect(decodeURIComponent(String(answer.headers['x-page-title']))).toBe(
        `${locale('en').entities.contest.title} | ${locale('en').pages.titles.awardsCms.replace('{{product}}', 'Awards CMS')}`,
      );
      // The frame: the skip link, the menu, no loading skeleton.
      expect(html).toContain(locale('en').common.skipToContent);
      expect(html).not.toContain('aria-busy="true"');
      // The menu once, the sidebar's: the small screens' slide-in menu is closed, its items not drawn.
      expect(html.match(/<nav aria-label="Main menu"/g)?.length, search).toBe(1);
      expect(html.match(/class="nav-link[ "]/g)?.length, search).toBe(new Set(html.match(/class="nav-link[^>]*href="[^"]*"/g)).size);
    }
  });

  it("renders in the caller's language, and compressed when the browser takes it", async () => {
    for (const language of ['id', 'ms']) {
      const html = String((await firstScreen({ path: '/manage-contest', lng: language })).body);
      expect(html, language).toContain(locale(language).common.skipToContent);
      expect(html, language).not.toContain(locale('en').common.skipToContent);
    }
    const plain = String((await firstScreen({ path: '/manage-contest' })).body);
    const br = await t.app.inject({
      method: 'GET',
      url: '/api/meta/first-screen?path=%2Fmanage-contest',
      headers: { authorization: `Bearer ${client.token}`, 'accept-encoding': 'br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain);
    const gzip = await t.app.inject({
      method: 'GET',
      url: '/api/meta/first-screen?path=%2Fmanage-contest',
      headers: { authorization: `Bearer ${client.token}`, 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain);
  });

  it('keeps a render for the same page and data, and renders again when the rows change', async () => {
    const cache = async (search: string) => (await firstScreen({ path: '/manage-contest', search })).headers['x-first-screen-cache'];
    await cache('?page=3');
    expect(await cache('?page=3')).toBe('hit');
    // The same page in another language is another screen.
    expect((await firstScreen({ path: '/manage-contest', search: '?page=3', lng: 'id' })).headers['x-first-screen-cache']).toBe('miss');
    // A submittor on that page renamed: the list answers other rows, the screen is rendered again and shows the new name.
    const rows = (await client.get(`/api/contests?page=3&include=customer`)).body.data as Array<{ customer_id: number }>;
    const { id, max_entries, email_verified_at, created_at, updated_at, ...customer } = (await client.get(`/api/customers/${rows[0]!.customer_id}`)).body
      .data as Record<string, unknown>;
    const renamed = await client.put(`/api/customers/${id}`, { ...customer, name: 'Renamed For The Cache Test' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const after = await firstScreen({ path: '/manage-contest', search: '?page=3' });
    expect(after.headers['x-first-screen-cache']).toBe('miss');
    expect(String(after.body)).toContain('Renamed For The Cache Test');
  });

  it('renders the sidebar collapsed when the browser keeps it so', async () => {
    const open = String((await firstScreen({ path: '/manage-contest' })).body);
    const collapsed = String((await firstScreen({ path: '/manage-contest', sidebar: 'collapsed' })).body);
    expect(open).not.toContain('data-collapsed="true"');
    expect(collapsed).toContain('data-collapsed="true"');
    expect((await firstScreen({ path: '/manage-contest', sidebar: 'open' })).status).toBe(400);
  });

  it('answers 204 for a page that is no list, and refuses a stranger and a malformed request', async () => {
    for (const path of ['/dashboard', '/manage-contest/5', '/', '/manage-contestx']) expect((await firstScreen({ path })).status, path).toBe(204);
    expect((await firstScreen({ path: '/manage-contest', lng: 'fr' })).status).toBe(400);
    expect((await firstScreen({ path: '/x'.repeat(151) })).status).toBe(400);
    expect((await client.get('/api/meta/first-screen')).status).toBe(400);
    const stranger = await new TestClient(t.app).init();
    expect((await stranger.get('/api/meta/first-screen?path=%2Fmanage-contest')).status).toBe(401);
  });
});

describe('first screen after a start', () => {
  it('is there for the first visitor: the render thread starts, warm, with the server', async () => {
    const { t, client } = await startSignedInApp('pglite', { DEMO_DATA: 'true', FIRST_SCREEN_AT_START: 'true' });
    try {
      // Nobody has asked for a first screen yet; the thread warms up meanwhile (a request during the
      // warm-up waits a second for it).
      await new Promise((resolve) => setTimeout(resolve, 6000));
      const answer = await client.get('/api/meta/first-screen?path=%2Fmanage-contest');
      expect(answer.status).toBe(200);
      expect(String(answer.body)).toContain('rt-TableRowHeaderCell');
    } finally {
      await t.close();
    }
  });
});

describe('list reads at start', () => {
  it('reads every list the admin sees once, as its list screen asks, and keeps none of them in the list cache', async () => {
    const { t, client } = await startSignedInApp('pglite', { DEMO_DATA: 'true' });
    try {
      const listed = ((await client.get('/api/meta/entities')).body.data as ClientEntity[]).filter((entity) => entity.permissions.list);
      // Each one read: a list that failed would stay cold for its first visitor.
      expect(await warmListReads(t.app)).toBe(listed.length);
      const first = await client.get('/api/meta/first-list?path=%2Fmanage-contest');
      expect(first.status).toBe(200);
      expect(first.headers['x-list-cache']).toBe('miss');
      expect(await warmListReads(t.app, () => true)).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('the main program', () => {
  it("starts the render thread first (before it loads the server's modules), unless told not to or the configuration is wrong", async () => {
    // A PostgreSQL URL: the embedded server's memory settings (V8's flags) stay out of this process.
    const env = { DATABASE_URL: 'postgres://127.0.0.1:5432/test' };
    const { firstScreenRenderer } = startEarly(env);
    try {
      expect(firstScreenRenderer?.running).toBe(true);
      expect(await firstScreenRenderer!.start()).toBe(true);
    } finally {
      await firstScreenRenderer?.close();
    }
    expect(startEarly({ ...env, FIRST_SCREEN_AT_START: 'false' })).toEqual({});
    // The server then says what is wrong (tests/api/lifecycle.test.ts).
    expect(startEarly({ ...env, PORT: 'eighty' })).toEqual({});
  });
});

describe('first-screen warm-up', () => {
  it("renders a page of made-up rows for every list the admin sees, so each list's cell code is compiled before the first visitor", async () => {
    const { t, client } = await startSignedInApp('pglite', { DEMO_DATA: 'true' });
    const renderer = new FirstScreenRenderer(path.resolve('dist/server/first-screen-worker.js'));
    try {
      const entities = (await client.get('/api/meta/entities')).body.data as ClientEntity[];
      const user = (await client.get('/api/auth/me')).body.data as AuthUser;
      const listed = entities.filter((entity) => entity.permissions.list);
      expect(listed.length).toBeGreaterThan(3);
      for (const entity of listed) {
        const screen = await renderer.render({ path: `/${entity.routes.list}`, search: '', language: 'en', user, entities, entity, list: warmUpPage(entity) });
        // A cell that could not take a made-up value fails the render (null): that list would stay cold.
        expect(screen, entity.name).not.toBeNull();
        const body = screen!.html.slice(screen!.html.indexOf('<tbody'), screen!.html.indexOf('</tbody>'));
        expect(body.match(/<tr[ >]/g)?.length, entity.name).toBe(15);
        // A relation column draws its related record (as a visitor's page does), not the empty placeholder.
        for (const column of entity.list.columns.filter((each) => each.cell === 'relation')) {
          expect(body, `${entity.name}.${column.field}`).toContain(`Warm-up ${column.display ?? 'name'} 0`);
        }
      }
    } finally {
      await renderer.close();
      await t.close();
    }
  });
});

describe('first-screen renderer', () => {
  /** A render thread that says it is ready and then does what `onMessage` (its body) says. */
  const fakeWorker = (onMessage: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-screen-'));
    const file = path.join(dir, 'worker.mjs');
    fs.writeFileSync(
      file,
      `import { parentPort } from 'node:worker_threads';\nparentPort.on('message', (message) => { ${onMessage} });\nparentPort.postMessage({ ready: true });\n`,
    );
    return file;
  };
  const input = {} as FirstScreenInput;

  it('renders nothing, without a thread, when the built render files are missing', async () => {
    const renderer = new FirstScreenRenderer('/nonexistent/first-screen-worker.js');
    expect(renderer.available).toBe(false);
    expect(await renderer.render(input)).toBeNull();
    await renderer.close();
  });

  it('gives up on a render that takes too long, and turns callers away beyond the renders waiting', async () => {
    const renderer = new FirstScreenRenderer(fakeWorker('/* never answers */'), { timeoutMs: 300, maxWaiting: 2 });
    try {
      let settled = 0;
      const waiting = [renderer.render(input), renderer.render(input)].map((render) => render.finally(() => (settled += 1)));
      // A third caller, with two waiting: nothing, before they have their answer.
      expect(await renderer.render(input)).toBeNull();
      expect(settled).toBe(0);
      // They get theirs when the time is up.
      expect(await Promise.all(waiting)).toEqual([null, null]);
    } finally {
      await renderer.close();
    }
  });

  it('stops the thread after a while without a render, and starts one again for the next', async () => {
    const renderer = new FirstScreenRenderer(fakeWorker(`parentPort.postMessage({ id: message.id, screen: { html: '', title: message.input.path } });`), {
      idleMs: 200,
    });
    try {
      expect(renderer.running).toBe(false);
      expect(await renderer.render({ ...input, path: '/a' })).toEqual({ html: '', title: '/a' });
      expect(renderer.running).toBe(true);
      await expect.poll(() => renderer.running, { timeout: 5000 }).toBe(false);
      expect(await renderer.render({ ...input, path: '/b' })).toEqual({ html: '', title: '/b' });
      expect(renderer.running).toBe(true);
    } finally {
      await renderer.close();
    }
  });

  it('hands the thread a descriptor list once, then by its id, and again to a new thread', async () => {
    const renderer = new FirstScreenRenderer(
      fakeWorker(
        `if (message.input.path === '/exit') process.exit(3); parentPort.postMessage({ id: message.id, screen: { html: String(message.entities?.length ?? 'by id ' + message.entitiesId), title: String(message.entityName) } });`,
      ),
    );
    const entities = [{ name: 'a' }, { name: 'b' }] as unknown as ClientEntity[];
    const other = [{ name: 'a' }] as unknown as ClientEntity[];
    try {
      const render = (path: string, list: ClientEntity[], entity = list[0]!) => renderer.render({ ...input, path, entities: list, entity });
      expect(await render('/1', entities, entities[1])).toEqual({ html: '2', title: 'b' });
      expect(await render('/2', entities)).toEqual({ html: 'by id 1', title: 'a' });
      // Another list (another role's) is sent once too.
      expect(await render('/3', other)).toEqual({ html: '1', title: 'a' });
      expect(await render('/4', entities)).toEqual({ html: 'by id 1', title: 'a' });
      // A thread that starts after one stopped has none yet.
      expect(await render('/exit', entities)).toBeNull();
      expect(await render('/5', entities)).toEqual({ html: '2', title: 'a' });
      expect(await render('/6', entities)).toEqual({ html: 'by id 1', title: 'a' });
      // Beyond the lists the thread keeps, the oldest sent is sent again.
      for (let i = 0; i < 16; i++) await render(`/more-${i}`, [{ name: 'a' }] as unknown as ClientEntity[]);
      expect(await render('/7', entities)).toEqual({ html: '2', title: 'a' });
    } finally {
      await renderer.close();
    }
  });

  it('answers each caller with its own render, and starts a new thread after one fails', async () => {
    const renderer = new FirstScreenRenderer(
      fakeWorker(
        `if (message.input.path === '/exit') process.exit(3); parentPort.postMessage({ id: message.id, screen: { html: '<p>' + message.input.path + '</p>', title: message.input.path } });`,
      ),
    );
    try {
      const answers = await Promise.all(['/a', '/b', '/c'].map((at) => renderer.render({ ...input, path: at })));
      expect(answers).toEqual(['/a', '/b', '/c'].map((at) => ({ html: `<p>${at}</p>`, title: at })));
      expect(await renderer.render({ ...input, path: '/exit' })).toBeNull();
      expect(await renderer.render({ ...input, path: '/d' })).toEqual({ html: '<p>/d</p>', title: '/d' });
    } finally {
      await renderer.close();
    }
  });
});

describe('first-screen warm-up order', () => {
  /** A render thread that answers each render at once with its path and how many rows it drew. */
  const echoWorker = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-screen-'));
    const file = path.join(dir, 'worker.mjs');
    fs.writeFileSync(
      file,
      `import { parentPort } from 'node:worker_threads';\nparentPort.on('message', (message) => parentPort.postMessage({ id: message.id, screen: { html: '', title: message.input.path + ' ' + message.input.list.data.length } }));\nparentPort.postMessage({ ready: true });\n`,
    );
    return file;
  };
  /** The renders asked of the thread, in order, with when each was asked. */
  class RecordingRenderer extends FirstScreenRenderer {
    readonly asked: { path: string; rows: number; at: number }[] = [];
    override render(input: FirstScreenInput) {
      this.asked.push({ path: input.path, rows: (input.list as { data: unknown[] }).data.length, at: performance.now() });
      return super.render(input);
    }
  }
  const entity = (name: string, list = true) =>
    ({
      name,
      routes: { list: `manage-${name}` },
      permissions: { list },
      jsonSchema: { properties: { title: { type: 'string' } } },
      list: { columns: [] },
    }) as unknown as ClientEntity;
  const entities = [entity('contest'), entity('report', false), entity('company'), entity('jury')];
  const visitor = { path: '/manage-company', search: '', language: 'en', entities, entity: entities[2]!, list: { data: [] } } as unknown as FirstScreenInput;

  it('renders an empty page first, then a page of made-up rows for each list, one at a time, round after round', async () => {
    const renderer = new RecordingRenderer(echoWorker());
    const screens = new FirstScreens(renderer, () => entities, { warmUpRounds: 2 });
    try {
      expect(await screens.ready(5000)).toBe(true);
      // Nothing more until the server serves.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(renderer.asked).toHaveLength(1);
      screens.serving();
      await screens.warmedUp;
      expect(renderer.asked.map(({ path, rows }) => `${path} ${rows}`)).toEqual([
        '/manage-contest 0',
        '/manage-contest 15',
        '/manage-company 15',
        '/manage-jury 15',
        '/manage-contest 15',
        '/manage-company 15',
        '/manage-jury 15',
      ]);
    } finally {
      await screens.close();
    }
  });

  it('draws its later rounds only once the server goes a while without requests (a server busy from its start keeps its cores)', async () => {
    const renderer = new RecordingRenderer(echoWorker());
    const screens = new FirstScreens(renderer, () => entities, { warmUpRounds: 2, idleMs: 300 });
    try {
      expect(await screens.ready(5000)).toBe(true);
      // Requests every 50 ms for a second from the moment the server serves.
      let lastRequest = performance.now();
      screens.requested();
      const busy = setInterval(() => {
        lastRequest = performance.now();
        screens.requested();
      }, 50);
      setTimeout(() => clearInterval(busy), 1000);
      screens.serving();
      await screens.warmedUp;
      clearInterval(busy);
      const rows = renderer.asked.filter((render) => render.rows === 15);
      expect(rows).toHaveLength(6);
      // The first round went on meanwhile; the second waited for the spell without requests.
      expect(rows.slice(0, 3).every((render) => render.at < lastRequest)).toBe(true);
      expect(rows.slice(3).every((render) => render.at >= lastRequest + 280)).toBe(true);
    } finally {
      await screens.close();
    }
  });

  it("lets visitors' renders go first: no made-up page while one is under way, nor until the quiet time after it", async () => {
    const renderer = new RecordingRenderer(echoWorker());
    const screens = new FirstScreens(renderer, () => entities, { visitorQuietMs: 400, warmUpRounds: 1 });
    screens.serving();
    try {
      expect(await screens.ready(5000)).toBe(true);
      expect(await screens.render(visitor)).toEqual({ html: '', title: '/manage-company 0' });
      const answered = performance.now();
      await screens.warmedUp;
      const rows = renderer.asked.filter((render) => render.rows === 15);
      expect(rows).toHaveLength(3);
      // At most one began before the visitor's (it may have been asked for as the warm-up went on);
      // every other waited for the quiet time after the visitor's render.
      const early = rows.filter((render) => render.at < answered + 350);
      expect(early.length).toBeLessThanOrEqual(1);
      const visitorAsked = renderer.asked.find((render) => render.rows === 0 && render.path === '/manage-company')!.at;
      expect(early.every((render) => render.at <= visitorAsked)).toBe(true);
    } finally {
      await screens.close();
    }
  });
});
