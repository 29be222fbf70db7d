import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAudit } from '../../src/server/auth/audit.js';
import { verifyAuditChain } from '../../src/server/history/audit-chain.js';
import { isSecretField } from '../../src/server/history/changes.js';
import type { LoadedEntity } from '../../src/shared/descriptor/types.js';
import { type RelatedIds, validBody } from '../fixtures/record-factory.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, TestClient } from '../helpers/test-app.js';
import { allEntities, ENTITY_ENV, inDependencyOrder, seedAll } from './entities-helpers.js';

const creatable = inDependencyOrder(allEntities).filter((e) => e.descriptor.permissions.create.includes('admin'));

interface AuditRow {
  id: number;
  action: string;
  entity: string | null;
  entity_id: string | null;
  user_id: number | null;
  ip: string | null;
  changes: Record<string, { before: unknown; after: unknown }> | null;
}

const secretsOf = (entity: LoadedEntity) =>
  Object.entries(entity.schema.properties ?? {})
    .filter(([field, p]) => isSecretField(field, p))
    .map(([field]) => field);

describe.each(testDatabaseKinds())('history, trash and restore on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let ids: RelatedIds;
  let adminId: number;

  const lastAuditId = async () => Number((await sql<{ n: number }>`select coalesce(max(id), 0) as n from audit_log`.execute(t.app.db)).rows[0]!.n);
  const auditSince = async (id: number) =>
    (await sql<AuditRow>`select id, action, entity, entity_id, user_id, ip, changes from audit_log where id > ${id} order by id`.execute(t.app.db)).rows;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind, ENTITY_ENV));
    adminId = Number((await client.get('/api/auth/me')).body.data.id);
    ids = await seedAll(t.app, client);
  }, 300_000);
  afterAll(async () => t?.close());

  it.each(creatable.map((e) => [e.descriptor.name, e] as const))(
    '%s: create, update and delete each leave exactly one audit row with the right diff, secrets never',
    async (_name, entity) => {
      const d = entity.descriptor;
      const secrets = secretsOf(entity);
      let mark = await lastAuditId();
      const body = validBody(entity, 41, ids);
      const created = await client.post(`/api/${d.endpoint}`, body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.data.id as number;
      let rows = await auditSince(mark);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: 'create', entity: d.name, entity_id: String(id), user_id: adminId });
      expect(rows[0]!.ip).toBeTruthy();
      for (const [field, value] of Object.entries(created.body.data)) {
        if (['id', 'created_at', 'updated_at'].includes(field) || value === null || Object.hasOwn(d.computed, field)) continue;
        expect(rows[0]!.changes![field], field).toEqual({ before: null, after: value });
      }
      for (const secret of secrets) expect(rows[0]!.changes).not.toHaveProperty(secret);

      if (d.permissions.update.includes('admin')) {
        mark = await lastAuditId();
        const edit = validBody(entity, 42, ids, 'edit');
        const updated = await client.put(`/api/${d.endpoint}/${id}`, edit);
        expect(updated.status, JSON.stringify(updated.body)).toBe(200);
        rows = await auditSince(mark);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ action: 'update', entity: d.name, entity_id: String(id) });
        const changes = rows[0]!.changes!;
        for (const field of Object.keys(changes)) {
          expect(changes[field]!.after, field).toEqual(updated.body.data[field]);
          expect(changes[field]!.before, field).toEqual(created.body.data[field] ?? null);
          expect(changes[field]!.before).not.toEqual(changes[field]!.after);
        }
        for (const [field, value] of Object.entries(updated.body.data)) {
          if (['id', 'created_at', 'updated_at'].includes(field) || Object.hasOwn(d.computed, field) || secrets.includes(field)) continue;
          if (JSON.stringify(value) !== JSON.stringify(created.body.data[field] ?? null)) expect(changes, field).toHaveProperty(field);
        }
        for (const secret of secrets) expect(changes).not.toHaveProperty(secret);
        created.body.data = updated.body.data;
      }

      if (d.permissions.delete.includes('admin')) {
        mark = await lastAuditId();
        expect((await client.delete(`/api/${d.endpoint}/${id}`)).status).toBe(204);
        rows = await auditSince(mark);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ action: 'delete', entity: d.name, entity_id: String(id) });
        for (const secret of secrets) expect(rows[0]!.changes).not.toHaveProperty(secret);
        const history = await client.get(`/api/${d.endpoint}/${id}/history`);
        expect(history.status).toBe(200);
        expect(history.body.data.map((e: { action: string }) => e.action)).toEqual(
          d.permissions.update.includes('admin') ? ['delete', 'update', 'create'] : ['delete', 'create'],
        );
        expect(history.body.data[0].user).toMatchObject({ id: adminId, email: 'admin@example.com' });
      }
    },
  );

  it('a refused or rolled-back write leaves no audit row', async () => {
    const customer = allEntities.find((e) => e.descriptor.name === 'customer')!;
    const existing = await client.get(`/api/customers/${ids.customer![0]}`);
    const mark = await lastAuditId();
    // The e-mail clash is found by the database inside the write's transaction.
    const clash = await client.post('/api/customers', { ...validBody(customer, 1, ids), email: existing.body.data.email });
    expect(clash.status).toBe(409);
    // Still used by contests: refused inside the delete's transaction.
    expect((await client.delete(`/api/categories/${ids.category![0]}`)).status).toBe(409);
    await expect(
      t.app.db.transaction().execute(async (trx) => {
        await writeAudit(trx, { action: 'test.rolled_back', userId: adminId, entity: 'category', entityId: 1, before: { name: 'a' }, after: { name: 'b' } });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await auditSince(mark)).toEqual([]);
    expect((await verifyAuditChain(t.app.db)).ok).toBe(true);
  });

  it('writeAudit keeps its signature, records changed fields and never a secret', async () => {
    const mark = await lastAuditId();
    await writeAudit(t.app.db, { action: 'auth.password_change', userId: adminId, ip: '10.0.0.1' });
    await writeAudit(t.app.db, {
      action: 'accounts.update',
      userId: adminId,
      entity: 'user',
      entityId: 77,
      before: { name: 'A', password_hash: 'x1', totp_secret: 's1', role: 'admin' },
      after: { name: 'B', password_hash: 'x2', totp_secret: 's2', role: 'admin' },
      details: { token: 'abc', reason: 'test' },
    });
    const rows = await sql<AuditRow & { details: unknown }>`select * from audit_log where id > ${mark} order by id`.execute(t.app.db);
    expect(rows.rows[0]).toMatchObject({ action: 'auth.password_change', entity: 'user', entity_id: String(adminId), ip: '10.0.0.1', changes: null });
    expect(rows.rows[1]).toMatchObject({ entity: 'user', entity_id: '77', changes: { name: { before: 'A', after: 'B' } }, details: { reason: 'test' } });
  });

  it('audit log: admins filter it by person, entity, action and time, page it and export it as CSV', async () => {
    const all = await client.get('/api/audit?per_page=5');
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(5);
    expect(all.body.meta.total).toBeGreaterThan(5);
    const updates = await client.get('/api/audit?entity=category&action=update&per_page=100');
    expect(updates.body.data.length).toBeGreaterThan(0);
    expect(updates.body.data.every((e: AuditRow) => e.entity === 'category' && e.action === 'update')).toBe(true);
    const mine = await client.get(`/api/audit?user_id=${adminId}&per_page=100`);
    expect(mine.body.data.every((e: { user: { id: number } }) => e.user?.id === adminId)).toBe(true);
    const future = await client.get(`/api/audit?from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`);
    expect(future.body.meta.total).toBe(0);
    const past = await client.get(`/api/audit?to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`);
    expect(past.body.meta.total).toBe(all.body.meta.total);
    expect((await client.get('/api/audit?sort=x')).status).toBe(400);
    expect((await client.get('/api/audit?from=yesterday')).status).toBe(400);
    const csv = await client.get('/api/audit?format=csv&entity=category');
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-type'])).toContain('text/csv');
    const lines = String(csv.body).trim().split('\r\n');
    expect(lines[0]).toBe('id,time,user_id,user_email,user_name,action,entity,record_id,address,changes,details');
    expect(lines.length - 1).toBe((await client.get('/api/audit?entity=category')).body.meta.total);
    expect((await new TestClient(t.app).init().then((c) => c.get('/api/audit'))).status).toBe(401);
  });

  describe('trash and restore', () => {
    it('delete then restore brings the record back with its id, its relations and the totals', async () => {
      const campaignId = ids.campaign![0]!;
      const before = await client.get(`/api/campaigns/${campaignId}`);
      const linkedIds = async () =>
        (await sql<{ id: number }>`select id from contests where campaign_id = ${campaignId} order by id`.execute(t.app.db)).rows.map((r) => Number(r.id));
      const linked = await linkedIds();
      const totalBefore = (await client.get('/api/campaigns')).body.meta.total;
      expect(linked.length).toBeGreaterThan(0);

      expect((await client.delete(`/api/campaigns/${campaignId}`)).status).toBe(204);
      expect((await client.get(`/api/campaigns/${campaignId}`)).status).toBe(404);
      expect((await client.get('/api/campaigns')).body.meta.total).toBe(totalBefore - 1);
      expect(await linkedIds()).toEqual([]);
      const trash = await client.get('/api/trash');
      expect(trash.body.data[0]).toMatchObject({ entity: 'campaign', endpoint: 'campaigns', record_id: campaignId, title: before.body.data.name });

      const restored = await client.post(`/api/campaigns/${campaignId}/restore`);
      expect(restored.status, JSON.stringify(restored.body)).toBe(200);
      expect(restored.body.data).toEqual(before.body.data);
      expect((await client.get(`/api/campaigns/${campaignId}`)).body.data).toEqual(before.body.data);
      expect((await client.get('/api/campaigns')).body.meta.total).toBe(totalBefore);
      expect(await linkedIds()).toEqual(linked);
      expect(before.body.data.contest_count ?? linked.length).toBe(linked.length);
      const inTrash = (await client.get('/api/trash?entity=campaign')).body.data;
      expect(inTrash.some((i: { record_id: number }) => i.record_id === campaignId)).toBe(false);
      const history = await client.get(`/api/campaigns/${campaignId}/history`);
      expect(history.body.data.map((e: { action: string }) => e.action).slice(0, 2)).toEqual(['restore', 'delete']);
      expect((await client.post(`/api/campaigns/${campaignId}/restore`)).status).toBe(404);
      expect((await verifyAuditChain(t.app.db)).ok).toBe(true);
    });

    it('a restore that clashes with a newer record (same e-mail) is a clear 409 and changes nothing', async () => {
      const customer = allEntities.find((e) => e.descriptor.name === 'customer')!;
      const created = await client.post('/api/customers', { ...validBody(customer, 60, ids), email: 'clash@example.com' });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.data.id;
      expect((await client.delete(`/api/customers/${id}`)).status).toBe(204);
      const newer = await client.post('/api/customers', { ...validBody(customer, 61, ids), email: 'clash@example.com' });
      expect(newer.status).toBe(201);
      const clash = await client.post(`/api/customers/${id}/restore`);
      expect(clash.status).toBe(409);
      expect(clash.body.code).toBe('CONFLICT');
      expect(clash.body.message).toMatch(/newer customer already has this email/);
      expect(clash.body.errors[0]).toMatchObject({ path: 'email', keyword: 'restoreClash' });
      expect((await client.get('/api/trash')).body.data.some((i: { record_id: number }) => i.record_id === id)).toBe(true);
      expect((await client.delete(`/api/customers/${newer.body.data.id}`)).status).toBe(204);
      expect((await client.post(`/api/customers/${id}/restore`)).status).toBe(200);
    });

    it('emptying the trash is permanent and audited; old items expire after 30 days', async () => {
      const category = allEntities.find((e) => e.descriptor.name === 'category')!;
      const a = (await client.post('/api/categories', validBody(category, 70, ids))).body.data.id;
      const b = (await client.post('/api/categories', validBody(category, 71, ids))).body.data.id;
      await client.delete(`/api/categories/${a}`);
      await client.delete(`/api/categories/${b}`);
      await sql`update trash set deleted_at = now() - interval '31 days' where record_id = ${a} and entity = 'category'`.execute(t.app.db);
      const listed = await client.get('/api/trash?entity=category');
      const listedIds = listed.body.data.map((i: { record_id: number }) => i.record_id);
      expect(listedIds).toContain(b);
      expect(listedIds).not.toContain(a);
      expect((await client.post(`/api/categories/${a}/restore`)).status).toBe(404);
      const emptied = await client.delete('/api/trash');
      expect(emptied.status).toBe(200);
      expect(emptied.body.data.deleted).toBeGreaterThan(0);
      expect((await client.get('/api/trash')).body.meta.total).toBe(0);
      expect((await client.post(`/api/categories/${b}/restore`)).status).toBe(404);
      const audit = await client.get('/api/audit?action=trash.empty');
      expect(audit.body.data[0].details.records).toContainEqual({ entity: 'category', id: b, title: expect.any(String) });
    });
  });

  it('keeps one chain when writers append at once', async () => {
    const mark = await lastAuditId();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => client.post('/api/companies', { name: `Concurrent Company ${n}` })));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
    expect(await auditSince(mark)).toHaveLength(12);
    expect(await verifyAuditChain(t.app.db)).toMatchObject({ ok: true });
  });

  it('editing, deleting or re-hashing any audit row by SQL makes the verification name it', async () => {
    expect(await verifyAuditChain(t.app.db)).toMatchObject({ ok: true });
    const ids3 = (await sql<{ id: number }>`select id from audit_log order by id limit 3 offset 4`.execute(t.app.db)).rows.map((r) => Number(r.id));
    const [a, b, c] = ids3 as [number, number, number];
    const saved = (await sql<any>`select * from audit_log where id = ${a}`.execute(t.app.db)).rows[0];

    await sql`update audit_log set ip = '6.6.6.6' where id = ${a}`.execute(t.app.db);
    expect(await verifyAuditChain(t.app.db)).toMatchObject({ ok: false, broken: { id: a } });
    await sql`update audit_log set ip = ${saved.ip} where id = ${a}`.execute(t.app.db);
    expect((await verifyAuditChain(t.app.db)).ok).toBe(true);

    await sql`update audit_log set changes = '{"name":{"before":"x","after":"y"}}'::jsonb where id = ${b}`.execute(t.app.db);
    expect(await verifyAuditChain(t.app.db)).toMatchObject({ ok: false, broken: { id: b } });

    const last = await lastAuditId();
    await sql`delete from audit_log where id = ${last}`.execute(t.app.db);
    await sql`delete from audit_log where id = ${c}`.execute(t.app.db);
    const report = await verifyAuditChain(t.app.db);
    expect(report.ok).toBe(false);
    expect(report.broken!.id).toBe(b);
  });
});
