import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deadlineRemindersJob, reminderHours, sendDeadlineReminders } from '../../src/features/judging/server/deadline-reminders.js';
import { judgingDb } from '../../src/features/judging/server/tables.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { addCategory, addContests, addCustomer, addExam, addJuror, jurorClient } from '../helpers/judging-fixture.js';
import { SmtpSink, withEnv } from '../helpers/smtp-sink.js';
import { startSignedInApp, startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

/**
 * Issue 27's events, each triggered through the real routes (the deadline reminders through the
 * scheduler's job): the outbox row written with its cause, to the right person, by the right
 * template, in the recipient's language (their account's, else the programme's default), with the
 * plural right for 1 and 2. Then the header's bell: a juror's own events, marked read.
 */

interface Mail {
  id: number;
  user_id: number | null;
  recipient: string;
  template: string;
  language: string;
  subject: string;
  body: string;
  link: string | null;
}

const PUBLIC_URL = 'https://awards.example.org';

async function mailsAfter(t: TestApp, after: number, template?: string): Promise<Mail[]> {
  const rows = await sql<Mail>`select id, user_id, recipient, template, language, subject, body, link from notification_outbox
    where id > ${after} ${template ? sql`and template = ${template}` : sql``} order by id`.execute(t.app.db);
  return rows.rows.map((row) => ({ ...row, id: Number(row.id) }));
}

async function lastMailId(t: TestApp): Promise<number> {
  const row = await sql<{ n: number | null }>`select max(id) as n from notification_outbox`.execute(t.app.db);
  return Number(row.rows[0]?.n ?? 0);
}

async function setProgrammeLanguage(t: TestApp, language: string): Promise<void> {
  await sql`insert into settings (key, value) values ('default_language', ${language}) on conflict (key) do update set value = ${language}`.execute(t.app.db);
}

async function setAccountLanguage(t: TestApp, userId: number, language: string): Promise<void> {
  await sql`update users set preferences = preferences || ${JSON.stringify({ language })}::jsonb where id = ${userId}`.execute(t.app.db);
}

async function accountOf(t: TestApp, email: string): Promise<number> {
  return (await sql<{ id: number }>`select id from users where email = ${email}`.execute(t.app.db)).rows[0]!.id;
}

/** The one mail in `list` to `recipient`. */
function only(list: Mail[], recipient: string): Mail {
  const found = list.filter((m) => m.recipient === recipient);
  expect(found, `mails to ${recipient}: ${JSON.stringify(list.map((m) => [m.recipient, m.template]))}`).toHaveLength(1);
  return found[0]!;
}

describe.each(testDatabaseKinds())('notification events on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let cat: number;
  let cat2: number;
  let cat3: number;
  let alpha: number;
  let beta: number;
  let alphaEntries: number[];
  let e1: number;
  let e2: number;
  /** Jurors: Indonesian, Malay and English accounts. */
  const J = { id: 0, ms: 0, en: 0 };
  const accounts = { id: 0, ms: 0, en: 0, entrant: 0 };
  const clients: Record<'id' | 'ms' | 'en', TestClient> = {} as never;
  let entrant: TestClient;
  const mail = (t: TestApp) => ({ mailer: t.app.mailer, publicUrl: PUBLIC_URL });

  beforeAll(async () => {
    ({ t, client: admin } = await startSignedInApp(kind, { PUBLIC_URL }));
    cat = await addCategory(t.app, 'Best Idea');
    cat2 = await addCategory(t.app, 'Best Craft');
    cat3 = await addCategory(t.app, 'Best Media');
    alpha = await addCustomer(t.app, 801, 'Alpha Sdn Bhd', { name: 'Aishah Alpha' });
    beta = await addCustomer(t.app, 802, 'Beta PT', { name: 'Budi Beta' });
    alphaEntries = await addContests(t.app, alpha, cat, 2);
    await addContests(t.app, beta, cat, 1);
    J.id = await addJuror(t.app, 901, null);
    J.ms = await addJuror(t.app, 902, null);
    J.en = await addJuror(t.app, 903, null);
    for (const lng of ['id', 'ms', 'en'] as const) {
      clients[lng] = await jurorClient(t.app, J[lng]);
      accounts[lng] = await accountOf(t, `juror-account-${J[lng]}@jury.test`);
      await setAccountLanguage(t, accounts[lng], lng);
    }
    // Each submittor gets an entrant account (the entrants feature's sync): Alpha's reads Malay;
    // Beta's is removed, so Beta's mail is written in the programme's language.
    await sql`update users set password_hash = ${await hashPassword('entrant-password-42', { N: 2 ** 10, r: 8, p: 1 })} where customer_id = ${alpha}`.execute(
      t.app.db,
    );
    accounts.entrant = await accountOf(t, 'submittor801@entrant.test');
    await setAccountLanguage(t, accounts.entrant, 'ms');
    await sql`delete from users where customer_id = ${beta}`.execute(t.app.db);
    entrant = await new TestClient(t.app).init();
    await entrant.signIn('submittor801@entrant.test', 'entrant-password-42');
  });
  afterAll(async () => {
    // NOTIFICATION_SAMPLES=<file>: one mail of each template (Indonesian or Malay when there is one), for the notes.
    const file = process.env.NOTIFICATION_SAMPLES;
    if (file && t && kind === 'pglite') {
      const rows = await mailsAfter(t, 0);
      const pick = new Map<string, Mail>();
      for (const row of rows) if (!pick.has(row.template) || (pick.get(row.template)!.language === 'en' && row.language !== 'en')) pick.set(row.template, row);
      const text = [...pick.values()]
        .map((m) => `### ${m.template} (${m.language})\nSubject: ${m.subject}\n\n${m.body.replace(/token=\S+/, 'token=…')}\n`)
        .join('\n');
      await import('node:fs').then((fs) => fs.writeFileSync(file, text));
    }
    await t?.close();
  });

  it('assignments saved: one mail per juror per save, in their language, the plural right for 1 and 2', async () => {
    e1 = await addExam(admin, cat, 1, true);
    let before = await lastMailId(t);
    for (const lng of ['id', 'ms', 'en'] as const) {
      const res = await admin.post(`/api/exams/${e1}/assignments`, { contest_id: alphaEntries[0], jury_id: J[lng] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const single = await mailsAfter(t, before, 'assignmentsSaved');
    expect(single).toHaveLength(3);
    const one = { id: only(single, 'juror901@jury.test'), ms: only(single, 'juror902@jury.test'), en: only(single, 'juror903@jury.test') };
    expect(one.id).toMatchObject({ language: 'id', user_id: accounts.id });
    expect(one.id.body).toContain('1 karya baru dalam penilaian Exam');
    expect(one.id.body).toContain(`${PUBLIC_URL}/jury`);
    expect(one.ms).toMatchObject({ language: 'ms', user_id: accounts.ms });
    expect(one.ms.body).toContain('1 penyertaan baharu dalam penilaian');
    expect(one.en.body).toContain('1 new entry in the examination');
    expect(one.en.body).toContain('is waiting for your grade');

    before = await lastMailId(t);
    const auto = await admin.post(`/api/exams/${e1}/auto-assign`, { per_entry: 3, dry_run: false });
    expect(auto.status, JSON.stringify(auto.body)).toBe(200);
    expect(auto.body.data.planned).toHaveLength(6);
    const saved = await mailsAfter(t, before);
    // Six assignments in one save: three mails, one per juror.
    expect(saved.map((m) => m.template)).toEqual(['assignmentsSaved', 'assignmentsSaved', 'assignmentsSaved']);
    expect(only(saved, 'juror901@jury.test').body).toContain('2 karya baru dalam penilaian');
    expect(only(saved, 'juror902@jury.test').body).toContain('2 penyertaan baharu dalam penilaian');
    expect(only(saved, 'juror902@jury.test').subject).toBe(`Awards CMS: penyertaan baharu untuk dinilai dalam Exam ${cat}-1`);
    expect(only(saved, 'juror903@jury.test').body).toContain('2 new entries in the examination');
    expect(only(saved, 'juror903@jury.test').body).toContain('are waiting for your grade');
  });

  it('exam opened: no mail while a draft is assigned; on opening each juror is told how many', async () => {
    const [a1, a2] = await addContests(t.app, alpha, cat2, 2);
    const [b1] = await addContests(t.app, beta, cat2, 1);
    e2 = await addExam(admin, cat2, 1, false);
    const before = await lastMailId(t);
    for (const [contest, juror] of [
      [a1, J.ms],
      [a2, J.ms],
      [b1, J.en],
      [b1, J.id],
    ] as const) {
      expect((await admin.post(`/api/exams/${e2}/assignments`, { contest_id: contest, jury_id: juror })).status).toBe(201);
    }
    expect(await mailsAfter(t, before)).toEqual([]);
    expect((await admin.post(`/api/exams/${e2}/status`, { status: 'open' })).status).toBe(200);
    const opened = await mailsAfter(t, before, 'examOpened');
    expect(opened).toHaveLength(3);
    const ms = only(opened, 'juror902@jury.test');
    expect(ms.subject).toBe(`Awards CMS: penilaian Exam ${cat2}-1 telah dibuka`);
    expect(ms.body).toContain('2 penyertaan ditugaskan kepada anda');
    expect(ms.body).toContain('tarikh yang belum ditetapkan');
    expect(only(opened, 'juror901@jury.test').body).toContain('1 karya ditugaskan kepada Anda');
    expect(only(opened, 'juror903@jury.test').body).toContain('1 entry is assigned to you');
  });

  it('deadline reminders: 48 h and 24 h before closes_at, once per juror, exam and threshold, across runs and servers', async () => {
    expect(reminderHours({ DEADLINE_REMINDER_HOURS: '12, 72' })).toEqual([72, 12]);
    expect(() => reminderHours({ DEADLINE_REMINDER_HOURS: '48,soon' })).toThrow('DEADLINE_REMINDER_HOURS');
    const before = await lastMailId(t);
    await sql`update exams set closes_at = now() + interval '47 hours' where id = ${e1}`.execute(t.app.db);
    // Two servers' runs at once, then the scheduler's job again: each juror is reminded once.
    const db = judgingDb(t.app.db);
    await Promise.all([sendDeadlineReminders(db, mail(t)), sendDeadlineReminders(db, mail(t))]);
    await deadlineRemindersJob.run(t.app);
    const first = await mailsAfter(t, before, 'deadlineReminder');
    expect(first).toHaveLength(3);
    const ms = only(first, 'juror902@jury.test');
    expect(ms.subject).toBe(`Awards CMS: Exam ${cat}-1 ditutup dalam 47 jam`);
    expect(ms.body).toContain('3 penyertaan dalam penilaian');
    expect(ms.body).toContain('lebih kurang 47 jam lagi');
    expect(only(first, 'juror901@jury.test').body).toContain('3 karya dalam penilaian');
    expect(only(first, 'juror903@jury.test').body).toContain('3 entries in the examination');

    const mid = await lastMailId(t);
    await sql`update exams set closes_at = now() + interval '23 hours' where id = ${e1}`.execute(t.app.db);
    await deadlineRemindersJob.run(t.app);
    await deadlineRemindersJob.run(t.app);
    const second = await mailsAfter(t, mid, 'deadlineReminder');
    expect(second.map((m) => m.recipient).sort()).toEqual(['juror901@jury.test', 'juror902@jury.test', 'juror903@jury.test']);
    expect(only(second, 'juror901@jury.test').body).toContain('sekitar 23 jam lagi');
    const recorded = await sql<{
      hours: number;
      n: number;
    }>`select hours, count(*)::int as n from judging_deadline_reminders where exam_id = ${e1} group by hours order by hours`.execute(t.app.db);
    expect(recorded.rows).toEqual([
      { hours: 24, n: 3 },
      { hours: 48, n: 3 },
    ]);
  });

  it('grade reopened: the juror is told why, in their language', async () => {
    const mine = (await clients.id.get('/api/jury/assignments')).body.data.assignments as Array<{ id: number; exam_id: number }>;
    const assignment = mine.find((a) => a.exam_id === e1)!;
    const graded = await clients.id.put(`/api/assignments/${assignment.id}/grade`, { scores: { idea: 8, craft: 4 }, submit: true });
    expect(graded.status, JSON.stringify(graded.body)).toBe(200);
    const before = await lastMailId(t);
    const reason = 'Skor kreativiti perlu disemak semula';
    expect((await admin.post(`/api/grades/${graded.body.data.id}/reopen`, { reason })).status).toBe(200);
    const [told] = await mailsAfter(t, before);
    expect(told).toMatchObject({ template: 'gradeReopened', recipient: 'juror901@jury.test', language: 'id', user_id: accounts.id });
    expect(told!.subject).toMatch(/^Awards CMS: nilai Anda untuk karya \S+ dibuka kembali$/);
    expect(told!.body).toContain(`Alasan: ${reason}`);
    expect(told!.body).toContain(`dalam penilaian Exam ${cat}-1 dibuka kembali`);
  });

  it("an admin's reminder to the jurors with work left, each in their language", async () => {
    const before = await lastMailId(t);
    const res = await admin.post('/api/judging/reminders', { exam_id: e1 });
    expect(res.body.data).toMatchObject({ sent: 3, failed: 0, entries: 9 });
    const reminded = await mailsAfter(t, before);
    expect(reminded.map((m) => m.template)).toEqual(['gradingReminder', 'gradingReminder', 'gradingReminder']);
    expect(only(reminded, 'juror902@jury.test').body).toContain('3 penyertaan menunggu markah anda');
    expect(only(reminded, 'juror901@jury.test').body).toContain('3 karya menunggu nilai Anda');
    expect(only(reminded, 'juror903@jury.test').body).toContain('3 entries are waiting for your grade');
  });

  it('entry approved or rejected: the submittor is told, in their account language or else the programme language', async () => {
    await setProgrammeLanguage(t, 'id');
    const [alphaEntry] = await addContests(t.app, alpha, cat3, 1);
    const [betaEntry] = await addContests(t.app, beta, cat3, 1);
    await sql`update contests set status = 'submitted' where id in (${alphaEntry}, ${betaEntry})`.execute(t.app.db);
    const before = await lastMailId(t);
    expect((await admin.post(`/api/contests/${alphaEntry}/review`, { decision: 'approve' })).status).toBe(200);
    expect((await admin.post(`/api/contests/${betaEntry}/review`, { decision: 'reject', reason: 'Materi tidak lengkap' })).status).toBe(200);
    const [approved, rejected] = await mailsAfter(t, before);
    expect(approved).toMatchObject({ template: 'entryApproved', recipient: 'submittor801@entrant.test', language: 'ms', user_id: accounts.entrant });
    expect(approved!.subject).toBe(`Awards CMS: penyertaan anda #${alphaEntry} diluluskan`);
    expect(rejected).toMatchObject({ template: 'entryRejected', recipient: 'submittor802@entrant.test', language: 'id', user_id: null });
    expect(rejected!.body).toContain(`Karya Anda #${betaEntry} tidak diterima.`);
    expect(rejected!.body).toContain('Alasan: Materi tidak lengkap');
  });

  it('applicant approved (and invited) or rejected, in the programme language', async () => {
    await setProgrammeLanguage(t, 'ms');
    const a = (await admin.post('/api/applicants', { name: 'Farah Aziz', email: 'farah@apply.test', company: 'Kilau', country: 'MY', expertise: [cat] })).body
      .data;
    const b = (await admin.post('/api/applicants', { name: 'Bima Santoso', email: 'bima@apply.test', country: 'ID' })).body.data;
    const before = await lastMailId(t);
    const approved = await admin.post(`/api/applicants/${a.id}/approve`, { round: 2 });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect((await admin.post(`/api/applicants/${b.id}/reject`, { reason: 'Bekerja untuk peserta' })).status).toBe(200);
    const [yes, invitation, no] = await mailsAfter(t, before);
    expect(yes).toMatchObject({ template: 'applicantApproved', recipient: 'farah@apply.test', language: 'ms', user_id: approved.body.data.account_id });
    expect(yes!.subject).toBe('Awards CMS: permohonan anda sebagai juri diterima');
    expect(yes!.body).toContain('Pusingan 2');
    expect(invitation).toMatchObject({ template: 'invitation', recipient: 'farah@apply.test', language: 'ms', user_id: approved.body.data.account_id });
    expect(invitation!.link).toMatch(/^https:\/\/awards\.example\.org\/set-password\?token=/);
    expect(invitation!.body).toContain(invitation!.link!);
    expect(no).toMatchObject({ template: 'applicantRejected', recipient: 'bima@apply.test', language: 'ms', user_id: null });
    expect(no!.body).toContain('Sebab: Bekerja untuk peserta');
  });

  it('invitation and password reset, each in the recipient language', async () => {
    await setProgrammeLanguage(t, 'id');
    const before = await lastMailId(t);
    const invited = await admin.post('/api/accounts', { name: 'Dewi Lestari', email: 'dewi@console.test', role: 'admin' });
    expect(invited.status).toBe(201);
    const [invitation] = await mailsAfter(t, before);
    expect(invitation).toMatchObject({ template: 'invitation', language: 'id', recipient: 'dewi@console.test', user_id: invited.body.data.id });
    expect(invitation!.subject).toBe('Anda diundang ke Awards CMS');
    // The juror's account is in Malay: the reset link comes in Malay.
    const email = `juror-account-${J.ms}@jury.test`;
    expect((await new TestClient(t.app).init().then((c) => c.post('/api/auth/forgot-password', { email }))).status).toBe(202);
    await vi.waitFor(async () => expect(await mailsAfter(t, before, 'passwordReset')).toHaveLength(1), { timeout: 10_000 });
    const [reset] = await mailsAfter(t, before, 'passwordReset');
    expect(reset).toMatchObject({ language: 'ms', recipient: email, user_id: accounts.ms });
    expect(reset!.subject).toBe('Set semula kata laluan Awards CMS anda');
    expect(reset!.link).toMatch(/\/reset-password\?token=/);
  });

  it('results published on finalising: each submittor once, with how many of their entries', async () => {
    await setProgrammeLanguage(t, 'en');
    expect((await admin.post(`/api/exams/${e2}/status`, { status: 'closed' })).status).toBe(200);
    const before = await lastMailId(t);
    const final = await admin.post(`/api/exams/${e2}/finalise`);
    expect(final.status, JSON.stringify(final.body)).toBe(200);
    const published = await mailsAfter(t, before);
    expect(published.map((m) => m.template)).toEqual(['resultsPublished', 'resultsPublished']);
    const ms = only(published, 'submittor801@entrant.test');
    expect(ms).toMatchObject({ language: 'ms', user_id: accounts.entrant });
    expect(ms.subject).toBe(`Awards CMS: keputusan penilaian Exam ${cat2}-1 telah muktamad`);
    expect(ms.body).toContain('2 penyertaan anda dinilai');
    const en = only(published, 'submittor802@entrant.test');
    expect(en).toMatchObject({ language: 'en', user_id: null });
    expect(en.body).toContain('1 entry of yours was judged');
  });

  it("the bell: each user's own events, unread first, marked read by id or all; jurors and entrants too", async () => {
    const juror = clients.ms;
    const list = await juror.get('/api/notifications');
    expect(list.status).toBe(200);
    const own = await sql<{ id: number }>`select id from notification_outbox where user_id = ${accounts.ms} and status <> 'cancelled' order by id`.execute(
      t.app.db,
    );
    expect(list.body.data.unread).toBe(own.rows.length);
    expect(list.body.data.events.map((e: { id: number }) => e.id).sort((a: number, b: number) => a - b)).toEqual(own.rows.map((r) => Number(r.id)));
    // Own events only (nothing about anyone else), and the new contests are the admin's route.
    expect(Object.keys(list.body.data).sort()).toEqual(['events', 'unread']);
    expect((await juror.get('/api/notifications/new-contests')).status).toBe(403);
    const newest = list.body.data.events[0];
    expect(newest).toMatchObject({ template: 'passwordReset', subject: 'Set semula kata laluan Awards CMS anda', read_at: null });

    // Another user's id is left alone; an own id is marked.
    const foreign = (await sql<{ id: number }>`select id from notification_outbox where user_id = ${accounts.id} order by id limit 1`.execute(t.app.db))
      .rows[0]!.id;
    const marked = await juror.post('/api/notifications/read', { ids: [Number(foreign), newest.id] });
    expect(marked.status).toBe(200);
    expect(marked.body.data).toEqual({ ids: [newest.id], unread: own.rows.length - 1 });
    const after = (await juror.get('/api/notifications')).body.data;
    expect(after.events.at(-1)).toMatchObject({ id: newest.id, read_at: expect.any(String) });
    expect(after.events[0].read_at).toBeNull();
    expect((await juror.post('/api/notifications/read', {})).status).toBe(422);
    expect((await juror.post('/api/notifications/read', { ids: Array.from({ length: 101 }, (_, i) => i + 1) })).status).toBe(422);
    expect((await juror.post('/api/notifications/read', { all: true })).body.data.unread).toBe(0);
    const audit = await sql<{ n: number }>`select count(*)::int as n from audit_log where action = 'notifications.read' and user_id = ${accounts.ms}`.execute(
      t.app.db,
    );
    expect(audit.rows[0]!.n).toBe(2);

    const mine = (await entrant.get('/api/notifications')).body.data;
    expect(mine.events.map((e: { template: string }) => e.template).sort()).toEqual(['entryApproved', 'resultsPublished']);
    expect((await entrant.get('/api/notifications/new-contests')).status).toBe(403);
    // The admin reads their own events there and the contests since the previous sign-in on the admin route.
    expect((await admin.get('/api/notifications')).body.data).toEqual({ events: [], unread: 0 });
    expect((await admin.get('/api/notifications/new-contests')).body.data.count).toBeGreaterThan(0);
    expect((await new TestClient(t.app).init().then((c) => c.get('/api/notifications'))).status).toBe(401);
  });
});

describe.each(testDatabaseKinds())('a judging event arriving at an SMTP server on %s', (kind) => {
  let sink: SmtpSink;
  let t: TestApp;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    t = await withEnv({ OUTBOX_POLL_MS: '100' }, () => startTestApp(kind, { SMTP_URL: sink.url, MAIL_FROM: 'Awards <awards@example.org>', PUBLIC_URL }));
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('delivers the rejection of an applicant in Malay', async () => {
    await setProgrammeLanguage(t, 'ms');
    const admin = await new TestClient(t.app).init();
    await admin.signIn();
    const a = (await admin.post('/api/applicants', { name: 'Nurul Huda', email: 'nurul@apply.test', country: 'MY' })).body.data;
    expect((await admin.post(`/api/applicants/${a.id}/reject`, { reason: 'Panel sudah penuh' })).status).toBe(200);
    await sink.waitFor(() => sink.to('nurul@apply.test').length === 1, 'the rejection');
    const [message] = sink.to('nurul@apply.test');
    expect(message!.subject).toBe('Awards CMS: permohonan anda sebagai juri');
    expect(message!.text).toContain('Salam sejahtera Nurul Huda');
    expect(message!.text).toContain('Sebab: Panel sudah penuh');
    const row = async () =>
      (await sql<{ status: string; language: string }>`select status, language from notification_outbox where recipient = 'nurul@apply.test'`.execute(t.app.db))
        .rows[0];
    await vi.waitFor(async () => expect(await row()).toEqual({ status: 'sent', language: 'ms' }), { timeout: 10_000 });
  });
});
