import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { linkAccountsByEmail } from '../../src/features/accounts/server/account-links.js';
import { type MailMessage, renderedMail } from '../../src/server/auth/mailer.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, TestClient } from '../helpers/test-app.js';

const PASSWORD = 'lantern-orchid-meadow';

describe.each(testDatabaseKinds())('juror accounts on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let outbox: MailMessage[];

  beforeAll(async () => {
    ({ t, client: admin } = await startSignedInApp(kind, { PUBLIC_URL: 'https://awards.example.org' }));
    outbox = [];
    vi.spyOn(t.app.mailer, 'send').mockImplementation(async (message) => void outbox.push(renderedMail(message)));
  });
  afterAll(async () => t?.close());

  const juror = async (name: string, email: string) => {
    const res = await admin.post('/api/juries', { name, email, round: 1, is_active: true });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  };
  const accountOf = async (email: string) => (await admin.get('/api/accounts')).body.data.find((a: { email: string }) => a.email === email.toLowerCase());
  const tokenFor = (email: string) => {
    const mail = outbox.filter((m) => m.to === email).at(-1);
    if (!mail) throw new Error(`no mail to ${email}`);
    return new URL(/https:\/\/\S+/.exec(mail.text)![0]).searchParams.get('token')!;
  };

  it('links a juror invited from Accounts to the juror with the same e-mail, whatever its case', async () => {
    const id = await juror('Siti Rahman', 'Siti.Rahman@Jury.example');
    const res = await admin.post('/api/accounts', { name: 'Siti Rahman', email: 'siti.rahman@jury.example', role: 'juror' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ role: 'juror', jury_id: id, status: 'invited' });
    // The invitation works: a password set, the juror signs in linked to the record.
    const anon = await new TestClient(t.app).init();
    expect((await anon.post('/api/auth/reset-password', { token: tokenFor('siti.rahman@jury.example'), password: PASSWORD })).status).toBe(204);
    const signedIn = await new TestClient(t.app).init();
    const login = await signedIn.signIn('siti.rahman@jury.example', PASSWORD);
    expect(login.data).toMatchObject({ role: 'juror', juryId: id });
    expect((await signedIn.get('/api/jury/assignments')).status).toBe(200);
  });

  it('refuses a juror invitation that names no juror and matches none (422), and takes one that names it', async () => {
    const refused = await admin.post('/api/accounts', { name: 'Nobody Known', email: 'nobody@jury.example', role: 'juror' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ path: 'jury_id', messageKey: 'accounts.errors.linkRequired' });
    expect(await accountOf('nobody@jury.example')).toBeUndefined();
    const id = await juror('Budi Santoso', 'budi.office@jury.example');
    const candidates = (await admin.get('/api/accounts/link-candidates?role=juror')).body.data;
    expect(candidates.map((c: { id: number }) => c.id)).toContain(id);
    const chosen = await admin.post('/api/accounts', { name: 'Budi Santoso', email: 'budi.home@jury.example', role: 'juror', jury_id: id });
    expect(chosen.status).toBe(201);
    expect(chosen.body.data.jury_id).toBe(id);
    expect((await admin.get('/api/accounts/link-candidates?role=juror')).body.data.map((c: { id: number }) => c.id)).not.toContain(id);
    // One account per juror: a second one for the same record is a 409.
    const twice = await admin.post('/api/accounts', { name: 'Budi Again', email: 'budi.office@jury.example', role: 'juror' });
    expect(twice.status).toBe(409);
    expect(twice.body.errors[0]).toMatchObject({ path: 'jury_id', messageKey: 'accounts.errors.alreadyLinked' });
    // An admin needs no juror.
    expect((await admin.post('/api/accounts', { name: 'Plain Admin', email: 'plain.admin@example.org', role: 'admin' })).status).toBe(201);
  });

  it("invites from the juror's page: state none → invited, the same again resends, an active account is a 409", async () => {
    const id = await juror('Ayu Lestari', 'ayu@jury.example');
    expect((await admin.get(`/api/juries/${id}/account`)).body.data).toMatchObject({ record_id: id, state: 'none', account_id: null });
    const first = await admin.post(`/api/juries/${id}/account`);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ outcome: 'invited', account: { state: 'invited', email: 'ayu@jury.example' } });
    const firstToken = tokenFor('ayu@jury.example');
    const again = await admin.post(`/api/juries/${id}/account`);
    expect(again.body.data.outcome).toBe('resent');
    const token = tokenFor('ayu@jury.example');
    expect(token).not.toBe(firstToken);
    const anon = await new TestClient(t.app).init();
    expect((await anon.post('/api/auth/reset-password', { token: firstToken, password: PASSWORD })).status).toBe(400);
    expect((await anon.post('/api/auth/reset-password', { token, password: PASSWORD })).status).toBe(204);
    expect((await admin.get(`/api/juries/${id}/account`)).body.data.state).toBe('active');
    const active = await admin.post(`/api/juries/${id}/account`);
    expect(active.status).toBe(409);
    expect(active.body.errors[0].messageKey).toBe('accounts.portal.skipped.active');
    expect((await admin.get('/api/juries/999999/account')).status).toBe(404);
    expect((await admin.post('/api/juries/999999/account')).status).toBe(404);
    const audit = await t.app.db.selectFrom('audit_log').select('action').where('action', 'like', 'accounts.invite%').execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['accounts.invite', 'accounts.invite_resent']));
  });

  it('invites many jurors at once and says how many were invited and which were skipped, and why', async () => {
    const fresh = [await juror('Rina Wijaya', 'rina@jury.example'), await juror('Dewi Sartika', 'dewi@jury.example')];
    const invited = await juror('Hana Putri', 'hana@jury.example');
    await admin.post(`/api/juries/${invited}/account`);
    await sql`insert into users (email, name, password_hash, role) values ('taken.admin@jury.example', 'Taken Admin', null, 'admin')`.execute(t.app.db);
    const taken = await juror('Taken Admin', 'taken.admin@jury.example');
    const res = await admin.post('/api/juries/accounts', { ids: [...fresh, invited, taken, 999999] });
    expect(res.status).toBe(200);
    expect(res.body.data.invited).toBe(2);
    expect(res.body.data.skipped).toEqual([
      { id: invited, name: 'Hana Putri', reason: 'invited' },
      { id: taken, name: 'Taken Admin', reason: 'email_taken' },
      { id: 999999, name: null, reason: 'not_found' },
    ]);
    for (const id of fresh) expect((await admin.get(`/api/juries/${id}/account`)).body.data.state).toBe('invited');
    const states = (await admin.get('/api/juries/accounts')).body.data as Array<{ id: number; state: string }>;
    expect(states.find((s) => s.id === taken)?.state).toBe('none');
    expect(states.find((s) => s.id === fresh[0])?.state).toBe('invited');
    expect((await admin.post('/api/juries/accounts', { ids: [] })).status).toBe(422);
    const anonymous = await new TestClient(t.app).init();
    expect((await anonymous.post('/api/juries/accounts', { ids: fresh })).status).toBe(401);
  });

  it('approving an applicant makes the juror and links its invited account; an existing juror and account are linked, not doubled', async () => {
    const a = (await admin.post('/api/applicants', { name: 'Farah Aziz', email: 'farah@jury.example', country: 'MY' })).body.data;
    const approved = await admin.post(`/api/applicants/${a.id}/approve`, { round: 1 });
    expect(approved.status).toBe(200);
    expect(await accountOf('farah@jury.example')).toMatchObject({ id: approved.body.data.account_id, jury_id: approved.body.data.jury_id, status: 'invited' });
    expect(outbox.some((m) => m.to === 'farah@jury.example' && m.text.includes('/set-password?token='))).toBe(true);

    // A juror with the applicant's e-mail already exists, with an old unlinked juror account.
    const existing = await juror('Kevin Ong', 'kevin@jury.example');
    await sql`insert into users (email, name, password_hash, role) values ('kevin@jury.example', 'Kevin Ong', null, 'juror')`.execute(t.app.db);
    const b = (await admin.post('/api/applicants', { name: 'Kevin Ong', email: 'Kevin@Jury.example', country: 'MY' })).body.data;
    const linked = await admin.post(`/api/applicants/${b.id}/approve`, { round: 2 });
    expect(linked.status).toBe(200);
    expect(linked.body.data.jury_id).toBe(existing);
    expect(await accountOf('kevin@jury.example')).toMatchObject({ id: linked.body.data.account_id, jury_id: existing, status: 'invited' });
    const jurors = await sql<{ n: number }>`select count(*)::int as n from juries where lower(email) = 'kevin@jury.example'`.execute(t.app.db);
    expect(jurors.rows[0]!.n).toBe(1);
    // The approval, and the invitation of the linked account (it has no password yet).
    expect(outbox.filter((m) => m.to === 'kevin@jury.example').map((m) => m.subject)).toEqual([
      'Awards CMS: your application to the jury was approved',
      'You are invited to Awards CMS',
    ]);
  });

  it('tells a rejected applicant, with the reason', async () => {
    const a = (await admin.post('/api/applicants', { name: 'Bima Santoso', email: 'bima@jury.example', country: 'ID' })).body.data;
    const res = await admin.post(`/api/applicants/${a.id}/reject`, { reason: 'Works for an entrant' });
    expect(res.status).toBe(200);
    const mail = outbox.filter((m) => m.to === 'bima@jury.example').at(-1)!;
    expect(mail.subject).toBe('Awards CMS: your application to the jury');
    expect(mail.text).toContain('Hello Bima Santoso');
    expect(mail.text).toContain('Reason: Works for an entrant');
  });

  it('links the juror accounts invited before, by e-mail, at start-up (and leaves a record one account has)', async () => {
    const id = await juror('Old Invite', 'Old.Invite@Jury.example');
    const owner = await juror('Owned Juror', 'owned@jury.example');
    expect((await admin.post('/api/accounts', { name: 'Owned Juror', email: 'owned.elsewhere@jury.example', role: 'juror', jury_id: owner })).status).toBe(201);
    await sql`insert into users (email, name, password_hash, role) values ('old.invite@jury.example', 'Old Invite', null, 'juror'), ('owned@jury.example', 'Stray', null, 'juror')`.execute(
      t.app.db,
    );
    const linked = await linkAccountsByEmail(t.app.auth.db, t.app.entities);
    expect(linked).toHaveLength(1);
    expect((await admin.get(`/api/juries/${id}/account`)).body.data).toMatchObject({ state: 'invited', account_id: linked[0] });
    expect((await accountOf('owned@jury.example')).jury_id).toBeNull();
    expect(await linkAccountsByEmail(t.app.auth.db, t.app.entities)).toEqual([]);
    const audit = await t.app.db.selectFrom('audit_log').select('action').where('action', '=', 'accounts.linked_by_email').execute();
    expect(audit).toHaveLength(1);
  });
});

describe('the demo jurors', () => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    ({ t, client: admin } = await startSignedInApp('pglite', { DEMO_DATA: 'true' }));
    vi.spyOn(t.app.mailer, 'send').mockImplementation(async () => undefined);
  }, 120_000);
  afterAll(async () => t?.close());

  it('can all be invited to the jury portal at once, each account linked to its juror', async () => {
    const states = (await admin.get('/api/juries/accounts')).body.data as Array<{ id: number; state: string }>;
    expect(states.length).toBeGreaterThan(0);
    const uninvited = states.filter((s) => s.state === 'none').map((s) => s.id);
    expect(uninvited.length).toBeGreaterThan(0);
    const res = await admin.post('/api/juries/accounts', { ids: uninvited });
    expect(res.body.data).toEqual({ invited: uninvited.length, skipped: [] });
    const accounts = (await admin.get('/api/accounts')).body.data.filter((a: { role: string }) => a.role === 'juror');
    expect(new Set(accounts.map((a: { jury_id: number }) => a.jury_id))).toEqual(new Set(states.map((s) => s.id)));
  });
});
