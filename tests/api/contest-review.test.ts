import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../helpers/databases.js';
import { addCategory, addCustomer, addExam, addJuror, jurorClient } from '../helpers/judging-fixture.js';
import { startSignedInApp, type TestApp, TestClient } from '../helpers/test-app.js';

/**
 * An admin reviews an entry (§19): approve makes it a Round 1 entry, reject needs a reason; only a
 * pending or submitted entry, never in an archived edition; admins only; audited with the reason.
 */
describe.each(testDatabaseKinds())('reviewing an entry on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let edition: number;
  let cat: number;
  let customer: number;
  let exam: number;

  const addEdition = async (year: number, status = 'open') =>
    (await sql<{ id: number }>`insert into editions (name, year, status) values (${`Review ${year}`}, ${year}, ${status}) returning id`.execute(t.app.db))
      .rows[0]!.id;
  const addEntry = async (status: string, ed: number = edition) =>
    (
      await sql<{ id: number }>`insert into contests (customer_id, category_id, status, edition_id, strategy)
        values (${customer}, ${cat}, ${status}, ${ed}, 'Strategy') returning id`.execute(t.app.db)
    ).rows[0]!.id;
  const statusOf = async (id: number) => (await sql<{ status: string }>`select status from contests where id = ${id}`.execute(t.app.db)).rows[0]!.status;
  const audits = async (id: number) =>
    (
      await sql<{
        action: string;
        details: any;
      }>`select action, details from audit_log where entity = 'contest' and entity_id = ${String(id)} order by id`.execute(t.app.db)
    ).rows.map((r) => ({ action: r.action, details: typeof r.details === 'string' ? JSON.parse(r.details) : r.details }));
  const review = (id: number, body: unknown, client: TestClient = admin) => client.post(`/api/contests/${id}/review`, body);
  const entries = async () => ((await admin.get(`/api/exams/${exam}/entries`)).body.data as { contest_id: number }[]).map((e) => e.contest_id);

  beforeAll(async () => {
    ({ t, client: admin } = await startSignedInApp(kind));
    edition = await addEdition(2041);
    cat = await addCategory(t.app, 'Review Film');
    customer = await addCustomer(t.app, 6100, 'Review Agency');
    exam = await addExam(admin, cat, 1, true, { edition_id: edition });
  });
  afterAll(async () => t?.close());

  it('approves a submitted entry: it becomes a Round 1 entry, audited', async () => {
    const id = await addEntry('submitted');
    expect(await entries()).not.toContain(id);
    const res = await review(id, { decision: 'approve' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 'approved', category_id: cat, edition_id: edition });
    expect(await entries()).toContain(id);
    expect(await audits(id)).toEqual([{ action: 'contest.approve', details: { from: 'submitted', to: 'approved', reason: null } }]);
  });

  it('rejects a pending entry only with a reason (422 reason_required), audited with the reason', async () => {
    const id = await addEntry('pending');
    for (const body of [{ decision: 'reject' }, { decision: 'reject', reason: '   ' }]) {
      const res = await review(id, body);
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: any) => e.keyword)).toEqual(['reason_required']);
    }
    expect(await statusOf(id)).toBe('pending');
    expect(await audits(id)).toEqual([]);
    const res = await review(id, { decision: 'reject', reason: '  Video link is broken. ' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('rejected');
    expect(await entries()).not.toContain(id);
    expect(await audits(id)).toEqual([{ action: 'contest.reject', details: { from: 'pending', to: 'rejected', reason: 'Video link is broken.' } }]);
  });

  it('refuses an entry already reviewed (409 not_reviewable) and an unknown decision (422), storing nothing', async () => {
    const id = await addEntry('approved');
    const res = await review(id, { decision: 'reject', reason: 'Changed my mind' });
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([expect.objectContaining({ keyword: 'not_reviewable', params: { status: 'approved' } })]);
    expect((await review(id, { decision: 'maybe' })).status).toBe(422);
    expect((await review(999999, { decision: 'approve' })).status).toBe(404);
    expect(await statusOf(id)).toBe('approved');
    expect(await audits(id)).toEqual([]);
  });

  it('refuses a review in an archived edition (409 edition_archived)', async () => {
    const archived = await addEdition(2039, 'archived');
    const id = await addEntry('submitted', archived);
    const res = await review(id, { decision: 'approve' });
    expect(res.status).toBe(409);
    expect(res.body.errors.map((e: any) => e.keyword)).toEqual(['edition_archived']);
    expect(await statusOf(id)).toBe('submitted');
  });

  it('is for admins only: a juror 403, nobody signed in 401', async () => {
    const id = await addEntry('submitted');
    const juror = await jurorClient(t.app, await addJuror(t.app, 6101, 'Review Jury'));
    expect((await review(id, { decision: 'approve' }, juror)).status).toBe(403);
    const anonymous = await new TestClient(t.app).init();
    expect((await review(id, { decision: 'approve' }, anonymous)).status).toBe(401);
    expect(await statusOf(id)).toBe('submitted');
  });
});
