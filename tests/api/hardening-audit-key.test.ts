import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/kysely.js';
import { AUDIT_KEYED_MARKER, auditKeyOf, hashAuditRow, keyAuditChain, verifyAuditChain } from '../../src/server/history/audit-chain.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp } from '../helpers/test-app.js';

// Issue 29, finding 7: the audit chain had no key: edit a row, recompute every hash and the head,
// and audit:verify said intact. Now every hash is an HMAC with a key derived from the data key,
// which is never in the database.

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-audit-key-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/**
 * What someone with write access to the database (and no key) can do: change a row, then recompute
 * every hash in order and the chain head, with the chain's published recipe (SHA-256 here, or an
 * HMAC with a key of their own).
 */
async function forgeAndRehash(db: Kysely<any>, edit?: { id: number; details: unknown }, key?: Buffer) {
  if (edit) await sql`update audit_log set details = ${JSON.stringify(edit.details)}::jsonb where id = ${edit.id}`.execute(db);
  const rows = await sql<any>`select id, created_at, user_id, action, entity, entity_id, ip, details, changes from audit_log order by id`.execute(db);
  let prev = '';
  let lastId = 0;
  for (const r of rows.rows) {
    const row = {
      ...r,
      id: Number(r.id),
      user_id: r.user_id === null ? null : Number(r.user_id),
      created_at: new Date(r.created_at).toISOString(),
      prev_hash: prev,
    };
    const hash = hashAuditRow(row, key);
    await sql`update audit_log set prev_hash = ${prev}, hash = ${hash} where id = ${row.id}`.execute(db);
    prev = hash;
    lastId = row.id;
  }
  await sql`update audit_chain set last_id = ${lastId}, last_hash = ${prev} where id = 1`.execute(db);
}

describe.each(testDatabaseKinds())('the keyed audit chain, on %s', (kind) => {
  it('detects a table rewritten and rehashed without the key; re-anchors an unkeyed chain once, with an audit entry', async () => {
    const { t, client } = await startSignedInApp(kind);
    try {
      for (const name of ['Alpha', 'Beta', 'Gamma']) {
        expect((await client.post('/api/categories', { name: `Audit ${name}`, description: 'Hardening test category', status: 'active' })).status).toBe(201);
      }
      const db = t.app.db as Kysely<any>;
      const key = auditKeyOf(db)!;
      expect(key).toBeInstanceOf(Buffer);
      expect(await verifyAuditChain(db)).toMatchObject({ ok: true, keyed: true });
      const target = Number((await sql<{ id: number }>`select id from audit_log where action = 'auth.login' order by id limit 1`.execute(db)).rows[0]!.id);
      const first = Number((await sql<{ id: number }>`select min(id) as id from audit_log`.execute(db)).rows[0]!.id);

      // Forged with the published recipe: the first rehashed row gives it away.
      await forgeAndRehash(db, { id: target, details: { forged: true } });
      expect(await verifyAuditChain(db, null)).toMatchObject({ ok: true, keyed: false });
      const report = await verifyAuditChain(db);
      expect(report).toMatchObject({ ok: false, keyed: true, broken: { id: first } });
      expect(report.broken!.reason).toMatch(/not keyed/);
      // Forged with a key of one's own: the same.
      await forgeAndRehash(db, undefined, randomBytes(32));
      expect(await verifyAuditChain(db)).toMatchObject({ ok: false, broken: { id: first } });

      // A chain from before the key (a server of an earlier version): verified whole, re-anchored
      // with the key once, and the re-anchoring audited.
      await forgeAndRehash(db);
      const marker = path.join(tmp, `${kind}-marker`);
      const outcome = await keyAuditChain(db, key, { markerDir: marker });
      expect(outcome.state).toBe('rekeyed');
      expect(await verifyAuditChain(db)).toMatchObject({ ok: true, keyed: true });
      const anchored = await sql<{ details: { rows: number } }>`select details from audit_log where action = 'audit.chain_keyed'`.execute(db);
      expect(anchored.rows).toHaveLength(1);
      expect(anchored.rows[0]!.details.rows).toBeGreaterThan(3);
      expect(fs.existsSync(path.join(marker, AUDIT_KEYED_MARKER))).toBe(true);
      // Stripped back to unkeyed hashes behind the marker: not blessed again.
      await forgeAndRehash(db, { id: target, details: { forged: 'again' } });
      expect((await keyAuditChain(db, key, { markerDir: marker })).state).toBe('refused');
      expect((await verifyAuditChain(db)).ok).toBe(false);
      // A key that is not this one: said, not rewritten.
      await forgeAndRehash(db, undefined, randomBytes(32));
      expect((await keyAuditChain(db, key, { markerDir: marker })).state).toBe('other-key');

      // One data folder serving two databases in turn (a seeded bench database, the move to
      // PostgreSQL): keyed for one, its marker says nothing of the other.
      await forgeAndRehash(db);
      const shared = path.join(tmp, `${kind}-shared`);
      fs.mkdirSync(shared, { recursive: true });
      fs.writeFileSync(path.join(shared, AUDIT_KEYED_MARKER), 'Keyed.\ndatabase postgres elsewhere:5432/other\n');
      expect((await keyAuditChain(db, key, { markerDir: shared, database: 'postgres here:5432/this' })).state).toBe('rekeyed');
      expect(fs.readFileSync(path.join(shared, AUDIT_KEYED_MARKER), 'utf8')).toContain('database postgres here:5432/this\n');
      await forgeAndRehash(db, { id: target, details: { forged: 'third' } });
      expect((await keyAuditChain(db, key, { markerDir: shared, database: 'postgres here:5432/this' })).state).toBe('refused');
    } finally {
      await t.close();
    }
  }, 300_000);
});

describe('npm run audit:verify with a forged-and-rehashed fixture', () => {
  it('says intact for the real chain and names the first rehashed row of a forged one (exit 1)', async () => {
    if (!fs.existsSync('dist/server/audit-verify.js')) throw new Error('Run node build.mjs first: this test runs dist/server/audit-verify.js.');
    const dataDir = path.join(tmp, 'cli');
    const { t, client } = await startSignedInApp('pglite', { DATA_DIR: dataDir });
    try {
      expect((await client.post('/api/categories', { name: 'Audit CLI', description: 'Hardening test category', status: 'active' })).status).toBe(201);
    } finally {
      await t.app.close();
    }
    const verify = () =>
      spawnSync(process.execPath, ['dist/server/audit-verify.js'], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', DATA_KEY: '', JWT_SECRET: '', LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 150_000,
      });
    const intact = verify();
    expect(intact.stdout + intact.stderr).toMatch(/intact: \d+ rows, every HMAC checked/);
    expect(intact.status).toBe(0);

    const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
    try {
      const id = Number((await sql<{ id: number }>`select max(id) as id from audit_log`.execute(database.db)).rows[0]!.id);
      await forgeAndRehash(database.db as Kysely<any>, { id, details: { forged: true } });
    } finally {
      await database.close();
    }
    const forged = verify();
    expect(forged.status).toBe(1);
    expect(forged.stdout + forged.stderr).toMatch(/broken at row \d+: its hash is not keyed/);
  }, 300_000);
});
