import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryDelaySeconds } from '../../src/features/notifications/server/outbox-settings.js';
import { buildApp } from '../../src/server/app.js';
import { renderMail } from '../../src/server/auth/mailer.js';
import { loadConfig } from '../../src/server/config.js';
import { createTestDatabase, testDatabaseKinds } from '../helpers/databases.js';
import { SmtpSink, withEnv } from '../helpers/smtp-sink.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestApp, type TestApp, TestClient } from '../helpers/test-app.js';

/** The outbox worker's clock, shortened: it reads these when the app is built. */
const FAST_OUTBOX = {
  OUTBOX_POLL_MS: '100',
  OUTBOX_RETRY_BASE_SECONDS: '0.3',
  OUTBOX_RETRY_MAX_SECONDS: '1',
  OUTBOX_CLAIM_SECONDS: '10',
  OUTBOX_BATCH: '10',
};

interface Row {
  id: number;
  recipient: string;
  template: string;
  language: string;
  status: string;
  attempts: number;
  message_id: string;
  link: string | null;
  last_error: string | null;
}

const rows = async (t: TestApp) =>
  (
    await sql<Row>`select id, recipient, template, language, status, attempts, message_id, link, last_error from notification_outbox order by id`.execute(
      t.app.db,
    )
  ).rows;

const LINK = /https?:\/\/\S+token=[A-Za-z0-9_%-]+/;

describe('outbox backoff', () => {
  it('waits a few minutes, doubling, then hourly (the defaults)', () => {
    const defaults = { retryBaseSeconds: 120, retryMaxSeconds: 3600 };
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => retryDelaySeconds(n, defaults))).toEqual([120, 240, 480, 960, 1920, 3600, 3600, 3600]);
  });
});

describe.each(testDatabaseKinds())('outbox with an SMTP server on %s', (kind) => {
  let sink: SmtpSink;
  let t: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    t = await withEnv(FAST_OUTBOX, () =>
      startTestApp(kind, { SMTP_URL: sink.url, MAIL_FROM: 'Awards <awards@example.org>', PUBLIC_URL: 'https://awards.example.org' }),
    );
    admin = await new TestClient(t.app).init();
    await admin.signIn();
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('delivers the invitation and the password reset in the recipient language, with the stored Message-ID', async () => {
    // New accounts start in the programme's language: Malay here.
    await sql`insert into settings (key, value) values ('default_language', 'ms') on conflict (key) do update set value = 'ms'`.execute(t.app.db);
    const invited = await admin.post('/api/accounts', { name: 'Siti Aminah', email: 'siti.outbox@example.com', role: 'admin' });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    await sink.waitFor(() => sink.to('siti.outbox@example.com').length === 1, 'the invitation');
    const invitation = sink.to('siti.outbox@example.com')[0]!;
    const stored = (await rows(t)).find((r) => r.recipient === 'siti.outbox@example.com')!;
    expect(stored).toMatchObject({ template: 'invitation', language: 'ms' });
    expect(invitation.messageId).toBe(stored.message_id);
    expect(invitation.messageId).toMatch(/^<[0-9a-f-]{36}@example\.org>$/);
    expect(invitation.from).toBe('awards@example.org');
    const malay = renderMail('ms', 'invitation', {});
    expect(invitation.subject).toBe(malay.subject);
    expect(invitation.text).toMatch(/^Salam sejahtera Siti Aminah,/);
    expect(invitation.text).toContain(stored.link!);
    expect(stored.link).toMatch(/^https:\/\/awards\.example\.org\/set-password\?token=/);

    // The password reset of an account that chose Indonesian arrives in Indonesian.
    await sql`update users set preferences = preferences || '{"language":"id"}'::jsonb where email = ${ADMIN_EMAIL}`.execute(t.app.db);
    const anon = await new TestClient(t.app).init();
    expect((await anon.post('/api/auth/forgot-password', { email: ADMIN_EMAIL })).status).toBe(202);
    await sink.waitFor(() => sink.to(ADMIN_EMAIL).length === 1, 'the reset mail');
    const reset = sink.to(ADMIN_EMAIL)[0]!;
    expect(reset.subject).toBe(renderMail('id', 'passwordReset', {}).subject);
    expect(reset.text).toMatch(/^Yth\. /);
    expect(reset.text).toMatch(/reset-password\?token=/);
    await sql`update users set preferences = preferences || '{"language":"en"}'::jsonb where email = ${ADMIN_EMAIL}`.execute(t.app.db);
    await sql`delete from settings where key = 'default_language'`.execute(t.app.db);

    // Both are marked sent, one attempt each; the list shows no link once a message is sent.
    await expect.poll(async () => (await rows(t)).filter((r) => r.status === 'sent').length).toBe(2);
    const listed = await admin.get('/api/outbox?status=sent');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    expect(listed.body.data.every((m: { link: string | null; attempts: number }) => m.link === null && m.attempts === 1)).toBe(true);
    expect(listed.body.meta).toMatchObject({ total: 2, smtp: true, counts: { sent: 2 } });
  });

  it('writes a mail only when its cause commits (the transaction of the cause)', async () => {
    const message = { to: 'tx@example.com', language: 'en' as const, template: 'invitation', vars: { name: 'Tx', inviter: 'Ada', hours: 72 } };
    await expect(
      t.app.db.transaction().execute(async (trx) => {
        await t.app.mailer.send({ ...message, link: 'https://awards.example.org/set-password?token=rolled-back' }, { db: trx });
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    await t.app.db
      .transaction()
      .execute(async (trx) => t.app.mailer.send({ ...message, link: 'https://awards.example.org/set-password?token=kept' }, { db: trx }));
    await sink.waitFor(() => sink.to('tx@example.com').length === 1, 'the committed mail');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.to('tx@example.com').map((m) => m.text.match(LINK)?.[0])).toEqual(['https://awards.example.org/set-password?token=kept']);
    expect((await rows(t)).filter((r) => r.recipient === 'tx@example.com')).toHaveLength(1);
  });

  it('keeps retrying while the SMTP server refuses, then sends every message once (count per Message-ID)', async () => {
    sink.refuse(451);
    const before = sink.messages.length;
    const recipients = Array.from({ length: 12 }, (_, i) => `refused${i}@example.com`);
    for (const [i, to] of recipients.entries()) {
      await t.app.mailer.send({
        to,
        language: (['en', 'id', 'ms'] as const)[i % 3]!,
        template: 'passwordReset',
        vars: { name: `P${i}`, minutes: 60 },
        link: `https://x.example/r?token=t${i}`,
      });
    }
    // Refused for a while (the worker backs off and tries again), then accepted.
    await expect.poll(() => sink.refused, { timeout: 20_000 }).toBeGreaterThanOrEqual(12);
    const waiting = (await rows(t)).filter((r) => recipients.includes(r.recipient));
    expect(waiting.every((r) => r.status === 'queued' || r.status === 'sending')).toBe(true);
    await expect.poll(async () => (await rows(t)).filter((r) => recipients.includes(r.recipient) && r.attempts >= 2).length, { timeout: 20_000 }).toBe(12);
    expect((await rows(t)).find((r) => r.recipient === recipients[0])!.last_error).toMatch(/451|Try again later/);
    sink.accept();
    await sink.waitFor(() => recipients.every((to) => sink.to(to).length > 0), 'the refused messages', 30_000);
    await expect.poll(async () => (await rows(t)).filter((r) => recipients.includes(r.recipient) && r.status === 'sent').length, { timeout: 20_000 }).toBe(12);
    const stored = (await rows(t)).filter((r) => recipients.includes(r.recipient));
    const counts = sink.countsByMessageId();
    expect(stored.map((r) => counts.get(r.message_id))).toEqual(stored.map(() => 1));
    expect(sink.messages.length - before).toBe(12);
    for (const row of stored) {
      const mail = sink.messages.find((m) => m.messageId === row.message_id)!;
      expect(mail.subject).toBe(renderMail(row.language, 'passwordReset', {}).subject);
    }
  });

  it('fails a message still refused a day after it was queued; an admin retries it (audited) and it is sent', async () => {
    sink.refuse(451);
    await t.app.mailer.send({
      to: 'late@example.com',
      language: 'en',
      template: 'passwordReset',
      vars: { name: 'Late', minutes: 60 },
      link: 'https://x.example/r?token=late',
    });
    const late = async () => (await rows(t)).find((r) => r.recipient === 'late@example.com')!;
    await expect.poll(async () => (await late()).attempts, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    // A day has passed since it was queued: the next refusal is final.
    await sql`update notification_outbox set queued_at = now() - interval '25 hours' where recipient = 'late@example.com'`.execute(t.app.db);
    await expect.poll(async () => (await late()).status, { timeout: 20_000 }).toBe('failed');
    sink.accept();

    const failed = await admin.get('/api/outbox?status=failed&template=passwordReset');
    expect(failed.body.data.map((m: { recipient: string }) => m.recipient)).toEqual(['late@example.com']);
    expect(failed.body.data[0]).toMatchObject({ status: 'failed', link: 'https://x.example/r?token=late', last_error: expect.stringMatching(/451|Try again/) });
    const id = failed.body.data[0].id;
    const retried = await admin.post('/api/outbox/retry', { ids: [id, 999_999] });
    expect(retried.status).toBe(200);
    expect(retried.body.data.ids).toEqual([id]);
    await sink.waitFor(() => sink.to('late@example.com').length === 1, 'the retried message');
    await expect.poll(async () => (await late()).status).toBe('sent');
    const audit = await sql<{ user_id: number; details: { ids: number[] } }>`select user_id, details from audit_log where action = 'outbox.retry'`.execute(
      t.app.db,
    );
    expect(audit.rows.map((r) => r.details.ids)).toEqual([[id]]);
  });
});

describe.each(testDatabaseKinds())('outbox without SMTP_URL on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  const logLines: string[] = [];

  beforeAll(async () => {
    const database = await createTestDatabase(kind);
    const config = loadConfig({
      LOG_LEVEL: 'info',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      DEMO_DATA: 'false',
      BACKUP_INTERVAL_HOURS: '0',
      PUBLIC_URL: 'https://awards.example.org',
      ...database.env,
    });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp(config, { logger: { level: 'info', stream } });
    t = {
      app,
      database,
      async close() {
        await app.close();
        await database.drop();
      },
    };
    admin = await new TestClient(t.app).init();
    await admin.signIn();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps messages listed as not sent, the invitation link for admins only, never in the info log', async () => {
    expect((await admin.post('/api/juries', { name: 'Juror Outbox', email: 'juror.outbox@example.com', round: 1, is_active: true })).status).toBe(201);
    const invited = await admin.post('/api/accounts', { name: 'Juror Outbox', email: 'juror.outbox@example.com', role: 'juror' });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const list = await admin.get('/api/outbox');
    expect(list.status).toBe(200);
    expect(list.body.meta).toMatchObject({ smtp: false, counts: { queued: 1, sent: 0 } });
    const [message] = list.body.data;
    expect(message).toMatchObject({ recipient: 'juror.outbox@example.com', template: 'invitation', status: 'queued', attempts: 0, sent_at: null });
    expect(message.link).toMatch(/^https:\/\/awards\.example\.org\/set-password\?token=/);
    expect(list.body.meta.templates).toContain('invitation');

    // The info log says a mail waits, without its link.
    const log = logLines.join('');
    expect(log).toContain('juror.outbox@example.com');
    expect(log).not.toContain(new URL(message.link).searchParams.get('token')!);
    expect(log).not.toMatch(/set-password\?token=/);

    // The admin passes the link on: the juror sets a password with it and cannot read the outbox.
    const token = new URL(message.link).searchParams.get('token')!;
    const juror = await new TestClient(t.app).init();
    expect((await juror.post('/api/auth/reset-password', { token, password: 'a-long-juror-password-1' })).status).toBe(204);
    await juror.signIn('juror.outbox@example.com', 'a-long-juror-password-1');
    expect((await juror.get('/api/outbox')).status).toBe(403);
    expect((await juror.post('/api/outbox/cancel', { ids: [message.id] })).status).toBe(403);
    const anon = await new TestClient(t.app).init();
    expect((await anon.get('/api/outbox')).status).toBe(401);
  });

  it('filters, pages, cancels one or many (audited) and refuses bad input', async () => {
    for (let i = 0; i < 5; i += 1) {
      await t.app.mailer.send({
        to: `many${i}@example.com`,
        language: 'en',
        template: 'passwordReset',
        vars: { name: `M${i}`, minutes: 60 },
        link: `https://x.example/r?token=m${i}`,
      });
    }
    const page = await admin.get('/api/outbox?template=passwordReset&per_page=2&page=2');
    expect(page.status).toBe(200);
    expect(page.body.meta).toMatchObject({ total: 5, page: 2, per_page: 2 });
    expect(page.body.data.map((m: { recipient: string }) => m.recipient)).toEqual(['many2@example.com', 'many1@example.com']);
    const ids = page.body.data.map((m: { id: number }) => m.id);
    const cancelled = await admin.post('/api/outbox/cancel', { ids });
    expect(cancelled.body.data.ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    const again = await admin.post('/api/outbox/cancel', { ids });
    expect(again.body.data.ids).toEqual([]);
    expect((await admin.get('/api/outbox?status=cancelled')).body.data).toHaveLength(2);
    const audit = await sql<{ details: { ids: number[] } }>`select details from audit_log where action = 'outbox.cancel'`.execute(t.app.db);
    expect(audit.rows).toHaveLength(1);
    // A cancelled message can be queued again.
    expect((await admin.post('/api/outbox/retry', { ids: [ids[0]] })).body.data.ids).toEqual([ids[0]]);
    expect((await admin.get('/api/outbox?status=cancelled')).body.data).toHaveLength(1);

    expect((await admin.get('/api/outbox?status=lost')).status).toBe(400);
    expect((await admin.get('/api/outbox?per_page=1000')).status).toBe(400);
    expect((await admin.post('/api/outbox/retry', { ids: [] })).status).toBe(422);
    expect((await admin.post('/api/outbox/retry', { ids: ['x'] })).status).toBe(422);
  });
});
