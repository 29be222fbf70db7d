import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OutgoingMail } from '../../src/server/index.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, TestClient } from '../helpers/test-app.js';

const PASSWORD = 'entrant-pass-1';
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe.each(testDatabaseKinds())('the entrant portal on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let edition: number;
  let category: number;
  let mails: OutgoingMail[];

  const submittor = async (email: string, max = 3) => {
    const res = await admin.post('/api/customers', { email, password: PASSWORD, password_confirmation: PASSWORD, max_entries: max });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  };
  const entrant = async (email: string) => {
    const client = await new TestClient(t.app).init();
    await client.signIn(email, PASSWORD);
    return client;
  };

  beforeAll(async () => {
    ({ t, client: admin } = await startSignedInApp(kind));
    mails = [];
    vi.spyOn(t.app.mailer, 'send').mockImplementation(async (message) => void mails.push(message));
    const created = await admin.post('/api/editions', { name: 'Awards 2031', year: 2031, status: 'open', entries_close_at: future(30) });
    expect(created.status).toBe(201);
    edition = created.body.data.id;
    category = (await admin.post('/api/categories', { name: 'Best Use of Radio', description: 'Radio spots', status: 'active' })).body.data.id;
  });
  afterAll(async () => t?.close());

  it('signs a submittor in as an entrant linked to the record; roles are kept apart both ways', async () => {
    const id = await submittor('Rina@Agency.example');
    const rina = await entrant('rina@agency.example');
    const me = await rina.get('/api/auth/me');
    expect(me.body.data).toMatchObject({ role: 'entrant', customerId: id });
    // The console and the jury portal are closed to an entrant...
    expect((await rina.get('/api/contests')).status).toBe(403);
    expect((await rina.get('/api/customers')).status).toBe(403);
    expect((await rina.get('/api/jury/assignments')).status).toBe(403);
    expect((await rina.get('/api/my/contests')).status).toBe(200);
    // ...and the entrant routes to an admin.
    expect((await admin.get('/api/my/contests')).status).toBe(403);
    expect((await admin.post('/api/my/contests', { edition_id: edition, category_id: category })).status).toBe(403);
  });

  it('gives a submittor stored without a password an account, whose password is set through the reset link', async () => {
    // As the demo data and older imports store them: straight into the table, no password.
    const row = await sql<{ id: number }>`
      insert into customers (email, name, is_active, max_entries) values ('old.timer@agency.example', 'Old Timer', true, 5) returning id`.execute(t.app.db);
    const id = row.rows[0]!.id;
    const account = await sql<{ role: string; customer_id: number; password_hash: string | null }>`
      select role, customer_id, password_hash from users where email = 'old.timer@agency.example'`.execute(t.app.db);
    expect(account.rows).toEqual([{ role: 'entrant', customer_id: id, password_hash: null }]);
    mails.length = 0;
    const anon = await new TestClient(t.app).init();
    expect((await anon.post('/api/auth/forgot-password', { email: 'old.timer@agency.example' })).status).toBe(202);
    await expect.poll(() => mails.length).toBe(1);
    const link = (mails[0] as { link?: string }).link ?? '';
    const token = new URL(link).searchParams.get('token')!;
    expect((await anon.post('/api/auth/reset-password', { token, password: PASSWORD })).status).toBe(204);
    const me = await (await entrant('old.timer@agency.example')).get('/api/auth/me');
    expect(me.body.data).toMatchObject({ role: 'entrant', customerId: id });
  });

  it('keeps an inactive submittor out, and lets them back in when active again', async () => {
    const id = await submittor('gone@agency.example');
    const signedIn = await entrant('gone@agency.example');
    const off = await admin.put(`/api/customers/${id}`, { email: 'gone@agency.example', is_active: false });
    expect(off.status).toBe(200);
    // The session ends at once, and signing in is refused.
    expect((await signedIn.get('/api/my/contests')).status).toBe(401);
    const again = await new TestClient(t.app).init();
    expect((await again.post('/api/login', { email: 'gone@agency.example', password: PASSWORD })).status).toBe(401);
    await admin.put(`/api/customers/${id}`, { email: 'gone@agency.example', is_active: true });
    await entrant('gone@agency.example');
  });

  it('drafts, edits and submits an entry; fields the entrant may not write are refused', async () => {
    await submittor('ana@agency.example');
    const ana = await entrant('ana@agency.example');
    const form = await ana.get('/api/my/contests/form');
    expect(form.body.data.fields).toContain('strategy');
    expect(form.body.data.fields).not.toContain('status');

    for (const field of ['status', 'customer_id', 'id']) {
      const refused = await ana.post('/api/my/contests', { edition_id: edition, category_id: category, [field]: field === 'status' ? 'approved' : 1 });
      expect(refused.status, field).toBe(422);
      expect(refused.body.errors.map((e: { path: string }) => e.path)).toContain(field);
    }
    const created = await ana.post('/api/my/contests', { edition_id: edition, category_id: category, strategy: 'Radio that listens' });
    expect(created.status).toBe(201);
    const entry = created.body.data;
    expect(entry).toMatchObject({ status: 'draft', edition_id: edition, category_id: category, editable: true });
    expect(entry.values.strategy).toBe('Radio that listens');
    // The edition and status are the server's on update too.
    expect((await ana.put(`/api/my/contests/${entry.id}`, { edition_id: edition })).status).toBe(422);
    expect((await ana.put(`/api/my/contests/${entry.id}`, { status: 'submitted' })).status).toBe(422);

    // Submitting needs the portal form's required fields.
    const early = await ana.post(`/api/my/contests/${entry.id}/submit`);
    expect(early.status).toBe(422);
    expect(early.body.errors).toEqual([expect.objectContaining({ path: 'creative_idea', messageKey: 'entrants.errors.requiredToSubmit' })]);
    const edited = await ana.put(`/api/my/contests/${entry.id}`, { creative_idea: 'A station for every town' });
    expect(edited.status).toBe(200);
    expect(edited.body.data.values).toMatchObject({ strategy: 'Radio that listens', creative_idea: 'A station for every town' });
    const submitted = await ana.post(`/api/my/contests/${entry.id}/submit`);
    expect(submitted.status).toBe(200);
    expect(submitted.body.data).toMatchObject({ status: 'submitted', editable: false });
    // Once submitted it is read-only.
    expect((await ana.put(`/api/my/contests/${entry.id}`, { strategy: 'Changed' })).status).toBe(409);
    expect((await ana.post(`/api/my/contests/${entry.id}/submit`)).status).toBe(409);
    // The console sees it as submitted, with the submittor; every write is audited.
    const row = await admin.get(`/api/contests/${entry.id}`);
    expect(row.body.data).toMatchObject({ status: 'submitted', edition_id: edition });
    const audit = await sql<{
      action: string;
    }>`select action from audit_log where entity_id = ${String(entry.id)} and action like 'entrants.%' order by id`.execute(t.app.db);
    expect(audit.rows.map((r) => r.action)).toEqual(['entrants.create', 'entrants.update', 'entrants.submit']);
  });

  it("answers another entrant's entry as a 404, and lists only one's own", async () => {
    await submittor('one@agency.example');
    await submittor('two@agency.example');
    const one = await entrant('one@agency.example');
    const two = await entrant('two@agency.example');
    const mine = (await one.post('/api/my/contests', { edition_id: edition, category_id: category })).body.data.id;
    expect((await two.get(`/api/my/contests/${mine}`)).status).toBe(404);
    expect((await two.put(`/api/my/contests/${mine}`, { strategy: 'Hijack' })).status).toBe(404);
    expect((await two.post(`/api/my/contests/${mine}/submit`)).status).toBe(404);
    expect((await two.get('/api/my/contests')).body.data).toEqual([]);
    expect((await one.get('/api/my/contests')).body.data.map((e: { id: number }) => e.id)).toEqual([mine]);
  });

  it("keeps to the submittor's max_entries and the edition's entry window", async () => {
    await submittor('max@agency.example', 2);
    const max = await entrant('max@agency.example');
    const create = () => max.post('/api/my/contests', { edition_id: edition, category_id: category });
    expect((await create()).status).toBe(201);
    const second = await create();
    expect(second.status).toBe(201);
    const full = await create();
    expect(full.status).toBe(409);
    expect(full.body.errors[0]).toMatchObject({ messageKey: 'entrants.errors.full', params: { max: 2 } });
    expect((await max.get('/api/my/contests/options')).body.data).toMatchObject({ max_entries: 2, used: 2 });

    // An edition not open (a draft) takes no entries.
    const draft = (await admin.post('/api/editions', { name: 'Awards 2032', year: 2032, status: 'draft' })).body.data.id;
    const notOpen = await max.post('/api/my/contests', { edition_id: draft, category_id: category });
    expect(notOpen.status).toBe(409);
    expect(notOpen.body.errors[0].messageKey).toBe('entrants.errors.closed');
    expect((await max.get('/api/my/contests/options')).body.data.editions.map((e: { id: number }) => e.id)).not.toContain(draft);

    // After the close: a 409 and a read-only entry.
    const late = (await admin.post('/api/editions', { name: 'Awards 2033', year: 2033, status: 'open', entries_close_at: future(1) })).body.data.id;
    await submittor('late@agency.example');
    const lateEntrant = await entrant('late@agency.example');
    const entry = (await lateEntrant.post('/api/my/contests', { edition_id: late, category_id: category, strategy: 'Early' })).body.data.id;
    await sql`update editions set entries_close_at = now() - interval '1 minute' where id = ${late}`.execute(t.app.db);
    const closed = await lateEntrant.put(`/api/my/contests/${entry}`, { strategy: 'Too late' });
    expect(closed.status).toBe(409);
    expect(closed.body.errors[0].messageKey).toBe('entrants.errors.closed');
    expect((await lateEntrant.post(`/api/my/contests/${entry}/submit`)).status).toBe(409);
    expect((await lateEntrant.get(`/api/my/contests/${entry}`)).body.data).toMatchObject({ editable: false, status: 'draft' });
    expect((await lateEntrant.post('/api/my/contests', { edition_id: late, category_id: category })).status).toBe(409);
  });

  it('reviews submitted entries in bulk, skipping drafts, and tells the entrants', async () => {
    await submittor('bulk@agency.example', 5);
    const bulk = await entrant('bulk@agency.example');
    const make = async (submit: boolean) => {
      const id = (await bulk.post('/api/my/contests', { edition_id: edition, category_id: category, strategy: 'S', creative_idea: 'C' })).body.data.id;
      if (submit) expect((await bulk.post(`/api/my/contests/${id}/submit`)).status).toBe(200);
      return id as number;
    };
    const [a, b, draft] = [await make(true), await make(true), await make(false)];
    // A draft is not reviewable on its own either.
    expect((await admin.post(`/api/contests/${draft}/review`, { decision: 'approve' })).status).toBe(409);
    expect((await admin.post('/api/contests/review', { ids: [a, b], decision: 'reject' })).status).toBe(422);
    expect((await bulk.post('/api/contests/review', { ids: [a], decision: 'approve' })).status).toBe(403);
    mails.length = 0;
    const res = await admin.post('/api/contests/review', { ids: [a, b, draft], decision: 'reject', reason: 'Outside the brief' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ reviewed: 2, skipped: [{ id: draft, reason: 'not_reviewable' }] });
    const statuses = (await bulk.get('/api/my/contests')).body.data.map((e: { id: number; status: string }) => [e.id, e.status]);
    expect(statuses).toEqual(
      expect.arrayContaining([
        [a, 'rejected'],
        [b, 'rejected'],
        [draft, 'draft'],
      ]),
    );
    expect(mails).toEqual([
      expect.objectContaining({ to: 'bulk@agency.example', template: 'entryRejected', vars: expect.objectContaining({ reason: 'Outside the brief' }) }),
      expect.objectContaining({ to: 'bulk@agency.example', template: 'entryRejected' }),
    ]);
  });

  it("publishes the jurors' remarks an exam chooses to, once results are published, without the jurors", async () => {
    const year = (await admin.post('/api/editions', { name: 'Awards 2034', year: 2034, status: 'open', entries_close_at: future(30) })).body.data.id as number;
    const made = await admin.post('/api/categories', { name: 'Best Use of Audio', description: 'Podcasts and audio spots', status: 'active' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const audio = made.body.data.id as number;
    await submittor('heard@agency.example');
    const heard = await entrant('heard@agency.example');
    const entry = (await heard.post('/api/my/contests', { edition_id: year, category_id: audio, strategy: 'S', creative_idea: 'C' })).body.data.id as number;
    expect((await heard.post(`/api/my/contests/${entry}/submit`)).status).toBe(200);

    const criteria = [{ key: 'idea', label: 'Idea', weight: 100, maximum: 10 }];
    const exam = async (name: string, extra: Record<string, unknown>) => {
      const res = await admin.post('/api/exams', { name, edition_id: year, category_id: audio, round: 1, max_score: 100, criteria, ...extra });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect((await admin.post(`/api/exams/${res.body.data.id}/status`, { status: 'open' })).status).toBe(200);
      return res.body.data as { id: number; publish_remarks: boolean };
    };
    const shared = await exam('Audio panel A', { publish_remarks: true });
    const kept = await exam('Audio panel B', { parallel_panel: true });
    // The programme's choice is a field of the exam, off unless set.
    expect(shared.publish_remarks).toBe(true);
    expect(kept.publish_remarks).toBe(false);
    expect((await admin.get(`/api/exams/${kept.id}`)).body.data.publish_remarks).toBe(false);

    const jurors: number[] = [];
    for (const n of [1, 2, 3]) {
      jurors.push(
        (
          await sql<{ id: number }>`insert into juries (name, email, company, country, round, is_active)
            values (${`Secret Juror ${n}`}, ${`secret${n}@jury.test`}, 'Jury Co', 'MY', 1, true) returning id`.execute(t.app.db)
        ).rows[0]!.id,
      );
    }
    const grade = async (examId: number, jury: number, remarks: string | null, status = 'submitted') => {
      const assignment = (
        await sql<{ id: number }>`insert into assignments (exam_id, contest_id, jury_id, status)
          values (${examId}, ${entry}, ${jury}, ${status === 'submitted' ? 'submitted' : 'in_progress'}) returning id`.execute(t.app.db)
      ).rows[0]!.id;
      await sql`insert into grades (assignment_id, exam_id, contest_id, jury_id, scores, total, score, remarks, status, submitted_at)
        values (${assignment}, ${examId}, ${entry}, ${jury}, ${JSON.stringify({ idea: 8 })}::jsonb, 80, 80, ${remarks}, ${status},
        ${status === 'submitted' ? sql`now()` : sql`null`})`.execute(t.app.db);
    };
    await grade(shared.id, jurors[0]!, 'Tight craft, a real insight.');
    await grade(shared.id, jurors[1]!, '   ');
    await grade(shared.id, jurors[2]!, 'A draft thought', 'draft');
    await grade(kept.id, jurors[0]!, 'For the organisers only');

    const remarksNow = async () => {
      const res = await heard.get(`/api/my/contests/${entry}`);
      expect(res.status).toBe(200);
      return res.body as { data: { remarks: unknown[] } };
    };
    // Before the results are final, nothing is shown.
    expect((await remarksNow()).data.remarks).toEqual([]);
    for (const id of [shared.id, kept.id]) {
      expect((await admin.post(`/api/exams/${id}/status`, { status: 'closed' })).status).toBe(200);
      expect((await admin.post(`/api/exams/${id}/finalise`)).status).toBe(200);
    }
    // Finalised, but the edition is still open: not published yet (as for the awards).
    expect((await remarksNow()).data.remarks).toEqual([]);
    const current = await admin.get(`/api/editions/${year}`);
    const closing = await admin.put(
      `/api/editions/${year}`,
      { name: 'Awards 2034', year: 2034, status: 'closed' },
      { 'if-match': String(current.headers.etag) },
    );
    expect(closing.status, JSON.stringify(closing.body)).toBe(200);

    // Published: the submitted, non-empty remarks of the exam that publishes them, and nothing else.
    const body = await remarksNow();
    expect(body.data.remarks).toEqual([{ exam: 'Audio panel A', round: 1, remark: 'Tight craft, a real insight.' }]);
    const text = JSON.stringify(body);
    for (const secret of ['Secret Juror', 'secret1@jury.test', 'jury_id', 'juror', 'For the organisers only', 'A draft thought']) {
      expect(text, secret).not.toContain(secret);
    }
    // The list carries the same, and another entrant never sees them.
    const listed = (await heard.get('/api/my/contests')).body.data.find((e: { id: number }) => e.id === entry);
    expect(listed.remarks).toEqual(body.data.remarks);
    await submittor('unheard@agency.example');
    expect((await (await entrant('unheard@agency.example')).get(`/api/my/contests/${entry}`)).status).toBe(404);
  });
});
