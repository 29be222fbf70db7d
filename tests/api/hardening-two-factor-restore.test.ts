import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { TOTP_PERIOD, totpCode } from '../../src/server/auth/totp.js';
import { restoreBackup } from '../../src/server/backup/restore-backup.js';
import { writeBackup } from '../../src/server/backup/write-backup.js';
import { loadConfig } from '../../src/server/config.js';
import { DATA_KEY_FILE } from '../../src/server/data-key.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startSignedInApp, startTestApp, TestClient } from '../helpers/test-app.js';

// Issue 29, finding 2: with DATA_KEY unset the TOTP secrets were sealed with a key derived from the
// JWT secret, which a backup (rightly) leaves out: after a restore onto another server (or the
// PGlite → PostgreSQL move) every code answered 500, and no admin could reset another account.

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-2fa-restore-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const SECOND = 'second.admin@example.com';
const PASSWORD = 'second-admin-password';

// The documented move ends on PostgreSQL: run there when it is available (PGlite otherwise). Three
// servers with their data on disk make this one of the slower API tests.
describe.each(testDatabaseKinds().slice(-1))('two-factor across a backup and a restore, on %s', (kind) => {
  it('keeps working on a server given the data key; a server without it says so at start, answers a coded 422, and an admin resets it', async () => {
    const dirA = path.join(tmp, `${kind}-a`);
    const first = await startSignedInApp(kind, { DATA_DIR: dirA });
    const file = path.join(tmp, `${kind}.ndjson.gz`);
    let secret: string;
    let recovery: string[];
    try {
      const registered = await first.client.post('/api/auth/register', { name: 'Second Admin', email: SECOND, password: PASSWORD, role: 'admin' });
      expect(registered.status).toBe(201);
      const second = await new TestClient(first.t.app).init();
      await second.signIn(SECOND, PASSWORD);
      secret = (await second.post('/api/auth/2fa/setup')).body.data.secret;
      const enabled = await second.post('/api/auth/2fa/enable', { code: totpCode(secret, Date.now() - TOTP_PERIOD * 1000) });
      expect(enabled.status).toBe(200);
      recovery = enabled.body.data.recoveryCodes;
      await writeBackup(first.t.app.database, file);
      // The data key is a file of the data folder (no DATA_KEY, no JWT_SECRET), never in the backup.
      const key = fs.readFileSync(path.join(dirA, DATA_KEY_FILE), 'utf8').trim();
      expect(key.length).toBeGreaterThanOrEqual(32);
      expect((await import('node:zlib')).gunzipSync(fs.readFileSync(file)).toString('utf8')).not.toContain(key);
    } finally {
      await first.t.close();
    }

    // A new server (another JWT secret) whose operator kept the data key: the codes work.
    const dirB = path.join(tmp, `${kind}-b`);
    fs.mkdirSync(dirB, { recursive: true });
    fs.copyFileSync(path.join(dirA, DATA_KEY_FILE), path.join(dirB, DATA_KEY_FILE));
    const kept = await startTestApp(kind, { DATA_DIR: dirB });
    try {
      await restoreBackup(kept.app.database, file, { force: true });
      const c = await new TestClient(kept.app).init();
      const challenge = await c.post('/api/login', { email: SECOND, password: PASSWORD });
      expect(challenge.body.twoFactor).toBe('verify');
      const done = await c.post('/api/auth/login/2fa', {
        challengeToken: challenge.body.challengeToken,
        code: totpCode(secret, Date.now() + TOTP_PERIOD * 1000),
      });
      expect(done.status).toBe(200);
    } finally {
      await kept.close();
    }

    // A new server without the key: restored, then started again on that database.
    const dirC = path.join(tmp, `${kind}-c`);
    const lost = await startTestApp(kind, { DATA_DIR: dirC });
    await restoreBackup(lost.app.database, file, { force: true });
    await lost.app.close();
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      DEMO_DATA: 'false',
      BACKUP_INTERVAL_HOURS: '0',
      ...lost.database.env,
      DATA_DIR: dirC,
    });
    const app = await buildApp(config, { logger: false });
    try {
      // Said at start, naming the account and what to do.
      const note = app.startupNotes.find((line) => line.startsWith('Two-factor:'));
      expect(note).toContain(SECOND);
      expect(note).toContain('data key');

      // Sign-in: a coded field error, never a 500; the recovery codes still work.
      const c = await new TestClient(app).init();
      const challenge = await c.post('/api/login', { email: SECOND, password: PASSWORD });
      const refused = await c.post('/api/auth/login/2fa', { challengeToken: challenge.body.challengeToken, code: totpCode(secret) });
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0]).toMatchObject({ path: 'code', messageKey: 'validation.twoFactor.keyLost' });
      const viaRecovery = await c.post('/api/auth/login/2fa', {
        challengeToken: (await c.post('/api/login', { email: SECOND, password: PASSWORD })).body.challengeToken,
        code: recovery[0],
      });
      expect(viaRecovery.status).toBe(200);

      // An admin resets another account's two-factor (audited); not their own here.
      const admin = await new TestClient(app).init();
      await admin.signIn();
      const secondId = (await app.db.selectFrom('users').select('id').where('email', '=', SECOND).executeTakeFirstOrThrow()).id;
      const adminId = (await app.db.selectFrom('users').select('id').where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow()).id;
      expect((await admin.post(`/api/accounts/${adminId}/reset-two-factor`)).status).toBe(409);
      const reset = await admin.post(`/api/accounts/${secondId}/reset-two-factor`);
      expect(reset.status).toBe(200);
      expect(reset.body.data).toMatchObject({ id: secondId, two_factor: false });
      const audit = await sql<{
        action: string;
        details: { accountId: number };
      }>`select action, details from audit_log where action = 'accounts.2fa_reset'`.execute(app.db);
      expect(audit.rows).toEqual([expect.objectContaining({ details: expect.objectContaining({ accountId: secondId }) })]);
      expect((await admin.post(`/api/accounts/${secondId}/reset-two-factor`)).status).toBe(409);
      // The holder is told by mail (one outbox row, written with the reset; none for the refused second try),
      // in their language: no preference, so the programme's default (English here).
      const told = await sql<{ user_id: number; recipient: string; template: string; language: string; body: string }>`
        select user_id, recipient, template, language, body from notification_outbox where template = 'twoFactorReset'`.execute(app.db);
      expect(told.rows).toEqual([expect.objectContaining({ user_id: secondId, recipient: SECOND, template: 'twoFactorReset', language: 'en' })]);
      expect(told.rows[0]!.body).toContain('Second Admin');
      // The account signs in with its password alone and may enrol again.
      const plain = await new TestClient(app).init();
      const signedIn = await plain.signIn(SECOND, PASSWORD);
      expect(signedIn.token).toBeTruthy();
    } finally {
      await app.close();
      await lost.database.drop();
    }
  }, 300_000);
});
