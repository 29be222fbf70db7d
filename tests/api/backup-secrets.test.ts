import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { restoreBackup } from '../../src/server/backup/restore-backup.js';
import { writeBackup } from '../../src/server/backup/write-backup.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, TestClient } from '../helpers/test-app.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-backup-secrets-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.each(testDatabaseKinds())('backups leave the signing key and live sessions out, on %s', (kind) => {
  it('dumps neither, and a restore onto a new server keeps that server’s key and lets its admins sign in', async () => {
    const first = await startSignedInApp(kind);
    const second = await startSignedInApp(kind);
    try {
      const made = await first.client.post('/api/categories', { name: 'Moved Category', description: 'Travels in the backup', status: 'active' });
      expect(made.status).toBe(201);
      const file = path.join(tmp, `${kind}.ndjson.gz`);
      await writeBackup(first.t.app.database, file);

      const text = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8');
      const lines = text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const tables = lines[0].tables.map((t: { name: string }) => t.name);
      expect(tables).toContain('users');
      expect(tables).not.toContain('sessions');
      expect(tables).not.toContain('password_resets');
      expect(lines.filter((l) => l.t === 'settings').map((l) => l.r.key)).not.toContain('jwt_secret');
      expect(text).not.toContain(Buffer.from(first.t.app.jwtSecret).toString('utf8'));
      expect(text).not.toContain(first.client.token.split('.')[2]);

      const keyBefore = await second.t.app.db.selectFrom('settings').selectAll().where('key', '=', 'jwt_secret').execute();
      await restoreBackup(second.t.app.database, file, { force: true });
      const keyAfter = await second.t.app.db.selectFrom('settings').selectAll().where('key', '=', 'jwt_secret').execute();
      expect(keyAfter).toEqual(keyBefore);
      if (kind === 'postgres') expect(keyAfter).toHaveLength(1);
      expect(await second.t.app.db.selectFrom('sessions').select('id').execute()).toEqual([]);

      // The old server's session does not travel; the new server signs its admins in and serves the data.
      expect((await second.client.get('/api/auth/me', { authorization: `Bearer ${first.client.token}`, 'x-access-token': first.client.token })).status).toBe(
        401,
      );
      const fresh = await new TestClient(second.t.app).init();
      await fresh.signIn();
      const list = await fresh.get('/api/categories');
      expect(list.status).toBe(200);
      expect(list.body.data.map((c: { name: string }) => c.name)).toContain('Moved Category');
    } finally {
      await first.t.close();
      await second.t.close();
    }
  }, 240_000);
});
