import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBeforeWrite } from '../../src/server/index.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { addCategory, addCustomer, addExam, addJuror, CRITERIA, jurorClient } from '../helpers/judging-fixture.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';

const keywords = (body: any): string[] => (body.errors ?? []).map((e: any) => e.keyword).sort();
const CODE = /^R(\d)-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{5}$/;

/**
 * A season's judging rules (§17): eligibility, panels, declared conflicts and the brand rule on every
 * write path, blind codes, and one Round 1 exam per category and edition.
 */
describe.each(testDatabaseKinds())('a judging season on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let n = 0;

  const addEdition = async (year: number) =>
    (await sql<{ id: number }>`insert into editions (name, year, status) values (${`Season ${year}`}, ${year}, 'open') returning id`.execute(t.app.db)).rows[0]!
      .id;
  const addCampaign = async (brand: string | null) =>
    (
      await sql<{ id: number }>`insert into campaigns (name, brand_name, status) values (${`Campaign ${++n}`}, ${brand}, 'active') returning id`.execute(
        t.app.db,
      )
    ).rows[0]!.id;
  /** One entry of a customer, with its status, edition and campaign. */
  const addEntry = async (customer: number, category: number, status: string, edition: number | null, campaign: number | null = null) =>
    (
      await sql<{ id: number }>`insert into contests (customer_id, category_id, status, edition_id, campaign_id, strategy, insight, creative_idea)
        values (${customer}, ${category}, ${status}, ${edition}, ${campaign}, 'Strategy', 'Insight', 'Idea') returning id`.execute(t.app.db)
    ).rows[0]!.id;
  const newExam = async (category: number, edition: number, round = 1, extra: Record<string, unknown> = {}) =>
    addExam(admin, category, round, true, { edition_id: edition, ...extra });
  const assign = (exam: number, contest_id: number, jury_id: number) => admin.post(`/api/exams/${exam}/assignments`, { contest_id, jury_id });
  const clients = new Map<number, TestClient>();
  /** A client signed in as the juror (one account per juror). */
  const jurorApi = async (juryId: number) => {
    if (!clients.has(juryId)) clients.set(juryId, await jurorClient(t.app, juryId));
    return clients.get(juryId)!;
  };
  const auditCount = async (action: string) =>
    (await sql<{ n: number }>`select count(*)::int as n from audit_log where action = ${action}`.execute(t.app.db)).rows[0]!.n;

  beforeAll(async () => {
    ({ t, client: admin } = await startSignedInApp(kind));
  });
  afterAll(async () => t?.close());

  describe('eligibility', () => {
    let edition: number;
    let cat: number;
    let exam: number;
    let approved: number[];
    let others: Record<'pending' | 'submitted' | 'rejected' | 'lastYear' | 'otherCategory', number>;
    let jurors: number[];

    beforeAll(async () => {
      edition = await addEdition(2031);
      const lastYear = await addEdition(2030);
      cat = await addCategory(t.app, 'Season Film');
      const other = await addCategory(t.app, 'Season Print');
      const customer = await addCustomer(t.app, 4000, 'Eligible Agency');
      approved = [
        await addEntry(customer, cat, 'approved', edition),
        await addEntry(customer, cat, 'approved', edition),
        await addEntry(customer, cat, 'approved', edition),
      ];
      others = {
        pending: await addEntry(customer, cat, 'pending', edition),
        submitted: await addEntry(customer, cat, 'submitted', edition),
        rejected: await addEntry(customer, cat, 'rejected', edition),
        lastYear: await addEntry(customer, cat, 'approved', lastYear),
        otherCategory: await addEntry(customer, other, 'approved', edition),
      };
      jurors = [await addJuror(t.app, 4001, 'Jury One'), await addJuror(t.app, 4002, 'Jury Two')];
      exam = await newExam(cat, edition);
      await admin.put(`/api/exams/${exam}/panel`, { jury_ids: jurors });
    });

    it('lists the approved entries of the category and edition as Round 1 entries, with status and source', async () => {
      const res = await admin.get(`/api/exams/${exam}/entries`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(
        approved.map((id) => ({ contest_id: id, code: null, status: 'approved', category_id: cat, edition_id: edition, source: { kind: 'approved' } })),
      );
      const matrix = (await admin.get(`/api/exams/${exam}/matrix`)).body.data;
      expect(matrix.entries.map((e: any) => [e.id, e.status, e.eligible])).toEqual(approved.map((id) => [id, 'approved', true]));
    });

    it('refuses a pending, submitted, rejected, last year or other category entry by hand (422 naming the rule)', async () => {
      for (const id of [others.pending, others.submitted, others.rejected, others.lastYear]) {
        const res = await assign(exam, id, jurors[0]!);
        expect(res.status).toBe(422);
        expect(res.body.errors).toEqual([{ path: 'contest_id', keyword: 'not_eligible', messageKey: 'judging.rules.not_eligible', params: {} }]);
      }
      expect(keywords((await assign(exam, others.otherCategory, jurors[0]!)).body)).toEqual(['category']);
      const stored = await sql<{ n: number }>`select count(*)::int as n from assignments where exam_id = ${exam}`.execute(t.app.db);
      expect(stored.rows[0]!.n).toBe(0);
    });

    it('auto-assigns only eligible entries, and the entity write path (import, generic route) refuses the others', async () => {
      const plan = (await admin.post(`/api/exams/${exam}/auto-assign`, { per_entry: 2, dry_run: true })).body.data;
      expect([...new Set(plan.planned.map((p: any) => p.contest_id))]).toEqual(approved);
      const entity = t.app.entities.byName.get('assignment')!;
      const write = (contest_id: number) =>
        t.app.db
          .transaction()
          .execute((db) =>
            runBeforeWrite({ entity, operation: 'create', data: { exam_id: exam, contest_id, jury_id: jurors[0]!, status: 'assigned' }, db, bulk: true }),
          );
      await expect(write(others.pending)).rejects.toMatchObject({ statusCode: 422, errors: [expect.objectContaining({ keyword: 'not_eligible' })] });
      await expect(write(approved[0]!)).resolves.toBeUndefined();
      expect((await admin.post('/api/assignments', { exam_id: exam, contest_id: others.pending, jury_id: jurors[0] })).status).toBeGreaterThanOrEqual(403);
    });

    it('takes exactly the shortlisted entries into Round 2, and refuses any other', async () => {
      for (const id of approved) for (const j of jurors) expect((await assign(exam, id, j)).status).toBe(201);
      const scores = [
        [9, 5],
        [6, 3],
        [3, 1],
      ];
      for (const j of jurors) {
        const c = await jurorApi(j);
        const work = (await c.get('/api/jury/assignments')).body.data.assignments.filter((a: any) => a.exam_id === exam);
        for (const a of work) {
          const contest = (await sql<{ contest_id: number }>`select contest_id from assignments where id = ${a.id}`.execute(t.app.db)).rows[0]!.contest_id;
          const [idea, craft] = scores[approved.indexOf(contest)]!;
          expect((await c.put(`/api/assignments/${a.id}/grade`, { scores: { idea, craft }, submit: true })).status).toBe(200);
        }
      }
      expect((await admin.post(`/api/exams/${exam}/status`, { status: 'closed' })).status).toBe(200);
      const shortlisted = await admin.post(`/api/exams/${exam}/shortlist`, { top: 2 });
      expect(shortlisted.status).toBe(200);
      const round2 = shortlisted.body.data.targetExamId as number;
      const entries = (await admin.get(`/api/exams/${round2}/entries`)).body.data;
      expect(entries.map((e: any) => [e.contest_id, e.source])).toEqual([
        [approved[0], { kind: 'shortlisted', exam_id: exam }],
        [approved[1], { kind: 'shortlisted', exam_id: exam }],
      ]);
      await admin.put(`/api/exams/${round2}/panel`, { jury_ids: jurors });
      const plan = (await admin.post(`/api/exams/${round2}/auto-assign`, { per_entry: 2, dry_run: true })).body.data;
      expect([...new Set(plan.planned.map((p: any) => p.contest_id))]).toEqual([approved[0], approved[1]]);
      const third = await assign(round2, approved[2]!, jurors[0]!);
      expect(third.status).toBe(422);
      expect(keywords(third.body)).toEqual(['not_eligible']);
      expect((await assign(round2, approved[0]!, jurors[0]!)).status).toBe(201);
      const matrix = (await admin.get(`/api/exams/${round2}/matrix`)).body.data;
      expect(matrix.entries.map((e: any) => e.id)).toEqual([approved[0], approved[1]]);
    });
  });

  describe('panels', () => {
    let edition: number;
    let cat: number;
    let exam: number;
    let entry: number;
    let r1: number;
    let r2: number;
    let idle: number;

    beforeAll(async () => {
      edition = await addEdition(2032);
      cat = await addCategory(t.app, 'Panel Radio');
      entry = await addEntry(await addCustomer(t.app, 4100, 'Panel Agency'), cat, 'approved', edition);
      r1 = await addJuror(t.app, 4101, 'Panel House One', 1);
      r2 = await addJuror(t.app, 4102, 'Panel House Two', 2);
      idle = await addJuror(t.app, 4103, 'Panel House Three', 1, false);
      exam = await newExam(cat, edition);
    });

    it("starts as the round's active jurors, then saves, audits and answers the panel with loads", async () => {
      const start = (await admin.get(`/api/exams/${exam}/panel`)).body.data;
      expect(start.default).toBe(true);
      expect(start.jury_ids).toContain(r1);
      expect(start.jury_ids).not.toContain(r2);
      expect(start.jury_ids).not.toContain(idle);
      const before = await auditCount('exam.panel');
      const saved = await admin.put(`/api/exams/${exam}/panel`, { jury_ids: [r2, r1] });
      expect(saved.status).toBe(200);
      expect(saved.body.data).toMatchObject({ exam_id: exam, default: false, jury_ids: [r1, r2].sort((a, b) => a - b) });
      expect(saved.body.data.jurors.find((j: any) => j.id === r2)).toMatchObject({ on_panel: true, round: 2, load: 0, edition_load: 0 });
      expect(await auditCount('exam.panel')).toBe(before + 1);
      expect((await admin.get(`/api/exams/${exam}/panel`)).body.data.jury_ids).toEqual([r1, r2].sort((a, b) => a - b));
    });

    it('refuses an unknown or inactive juror, an empty panel, and a juror caller; stores nothing refused', async () => {
      const unknown = await admin.put(`/api/exams/${exam}/panel`, { jury_ids: [r1, 999999] });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0]).toMatchObject({ path: 'jury_ids.1', keyword: 'exists' });
      expect(keywords((await admin.put(`/api/exams/${exam}/panel`, { jury_ids: [idle] })).body)).toEqual(['inactive']);
      expect((await admin.put(`/api/exams/${exam}/panel`, { jury_ids: [] })).status).toBe(422);
      expect((await admin.get('/api/exams/999999/panel')).status).toBe(404);
      const juror = await jurorApi(r1);
      expect((await juror.put(`/api/exams/${exam}/panel`, { jury_ids: [r1] })).status).toBe(403);
      expect((await admin.get(`/api/exams/${exam}/panel`)).body.data.jury_ids).toEqual([r1, r2].sort((a, b) => a - b));
    });

    it('lets a juror sit on panels of both rounds, and refuses a juror who is not on the panel', async () => {
      const other = await addJuror(t.app, 4104, 'Panel House Four', 1);
      const refused = await assign(exam, entry, other);
      expect(refused.status).toBe(422);
      expect(keywords(refused.body)).toEqual(['not_on_panel']);
      expect((await assign(exam, entry, r2)).status).toBe(201);
      const cat2 = await addCategory(t.app, 'Panel Radio Two');
      const entry2 = await addEntry(await addCustomer(t.app, 4105, 'Panel Agency Two'), cat2, 'approved', edition);
      const second = await newExam(cat2, edition);
      await admin.put(`/api/exams/${second}/panel`, { jury_ids: [r2] });
      expect((await assign(second, entry2, r2)).status).toBe(201);
      const work = (await (await jurorApi(r2)).get('/api/jury/assignments')).body.data;
      expect(work.exams.map((e: any) => e.id).sort()).toEqual([exam, second].sort());
      expect(work.exams[0]).toHaveProperty('opens_at');
      expect(work.exams[0]).toHaveProperty('closes_at');
    });
  });

  describe('auto-assign from the panel', () => {
    let edition: number;
    let jurors: number[];

    beforeAll(async () => {
      edition = await addEdition(2033);
      jurors = [];
      for (let i = 0; i < 4; i++) jurors.push(await addJuror(t.app, 4200 + i, `Balance House ${i}`));
    });

    const entriesIn = async (category: number, count: number, company = 'Balance Agency') => {
      const customer = await addCustomer(t.app, 4300 + ++n, company);
      const ids: number[] = [];
      for (let i = 0; i < count; i++) ids.push(await addEntry(customer, category, 'approved', edition));
      return ids;
    };

    it("draws only from the panel and balances loads across the edition's exams", async () => {
      const catX = await addCategory(t.app, 'Balance X');
      const catY = await addCategory(t.app, 'Balance Y');
      await entriesIn(catX, 3);
      const y = await entriesIn(catY, 4);
      const examX = await newExam(catX, edition);
      await admin.put(`/api/exams/${examX}/panel`, { jury_ids: [jurors[0], jurors[1]] });
      const savedX = (await admin.post(`/api/exams/${examX}/auto-assign`, { per_entry: 2, dry_run: false })).body.data;
      expect(savedX.planned).toHaveLength(6);
      expect(new Set(savedX.planned.map((p: any) => p.jury_id))).toEqual(new Set([jurors[0], jurors[1]]));
      const examY = await newExam(catY, edition);
      await admin.put(`/api/exams/${examY}/panel`, { jury_ids: jurors });
      const plan = (await admin.post(`/api/exams/${examY}/auto-assign`, { per_entry: 1, dry_run: true })).body.data;
      // The two jurors with three entries in X take none of Y's four until the others catch up.
      expect(plan.planned.map((p: any) => p.contest_id)).toEqual(y);
      expect(new Set(plan.planned.map((p: any) => p.jury_id))).toEqual(new Set([jurors[2], jurors[3]]));
      expect(plan.load.map((l: any) => [l.jury_id, l.count, l.edition_count])).toEqual([
        [jurors[0], 0, 3],
        [jurors[1], 0, 3],
        [jurors[2], 2, 2],
        [jurors[3], 2, 2],
      ]);
      expect(plan.panel).toEqual({ size: 4, default: false });
      // Deterministic.
      expect((await admin.post(`/api/exams/${examY}/auto-assign`, { per_entry: 1, dry_run: true })).body.data).toEqual(plan);
    });

    it("prefers the juror whose application names the exam's category, at equal load", async () => {
      const cat = await addCategory(t.app, 'Balance Expert');
      const [only] = await entriesIn(cat, 1);
      const fresh = [await addJuror(t.app, 4210, 'Expert House A'), await addJuror(t.app, 4211, 'Expert House B')];
      await sql`insert into applicants (name, email, country, expertise, status, jury_id)
        values ('Expert B', 'expert.b@jury.test', 'MY', ${JSON.stringify([cat])}::jsonb, 'approved', ${fresh[1]})`.execute(t.app.db);
      const exam = await newExam(cat, edition);
      await admin.put(`/api/exams/${exam}/panel`, { jury_ids: fresh });
      const plan = (await admin.post(`/api/exams/${exam}/auto-assign`, { per_entry: 1, dry_run: true })).body.data;
      expect(plan.planned).toEqual([{ contest_id: only, jury_id: fresh[1] }]);
      expect(plan.load.find((l: any) => l.jury_id === fresh[1]).expert).toBe(true);
      expect((await admin.get(`/api/exams/${exam}/panel`)).body.data.jurors.find((j: any) => j.id === fresh[1]).expertise).toEqual([cat]);
    });

    it('names the entries that fall short: a panel too small, or conflicts of interest', async () => {
      const cat = await addCategory(t.app, 'Balance Short');
      const [clean] = await entriesIn(cat, 1);
      const [clash] = await entriesIn(cat, 1, 'Balance House 0 Sdn Bhd');
      const exam = await newExam(cat, edition);
      await admin.put(`/api/exams/${exam}/panel`, { jury_ids: [jurors[0], jurors[1]] });
      const small = (await admin.post(`/api/exams/${exam}/auto-assign`, { per_entry: 3, dry_run: true })).body.data;
      expect(small.short).toEqual([
        { contest_id: clean, assigned: 2, missing: 1, conflicts: 0, reason: 'panel_too_small' },
        { contest_id: clash, assigned: 1, missing: 2, conflicts: 1, reason: 'panel_too_small' },
      ]);
      const conflicted = (await admin.post(`/api/exams/${exam}/auto-assign`, { per_entry: 2, dry_run: true })).body.data;
      expect(conflicted.short).toEqual([{ contest_id: clash, assigned: 1, missing: 1, conflicts: 1, reason: 'conflict_of_interest' }]);
      expect(conflicted.planned).not.toContainEqual({ contest_id: clash, jury_id: jurors[0] });
    });
  });

  describe('declared conflicts and the brand rule', () => {
    let edition: number;
    let cat: number;
    let exam: number;
    let entry: number;
    let plain: number;
    let juror: Record<'brand' | 'company' | 'entry' | 'declaredBrand' | 'free', number>;

    beforeAll(async () => {
      edition = await addEdition(2034);
      cat = await addCategory(t.app, 'Conflict Outdoor');
      const brand = await addCampaign('Kopi Kenangan');
      entry = await addEntry(await addCustomer(t.app, 4400, 'PT Maju Jaya Tbk'), cat, 'approved', edition, brand);
      plain = await addEntry(await addCustomer(t.app, 4401, 'Unrelated Agency'), cat, 'approved', edition, await addCampaign('Other Brand'));
      juror = {
        brand: await addJuror(t.app, 4410, 'KOPI-KENANGAN Sdn. Bhd.'),
        company: await addJuror(t.app, 4411, 'Conflict House One'),
        entry: await addJuror(t.app, 4412, 'Conflict House Two'),
        declaredBrand: await addJuror(t.app, 4413, 'Conflict House Three'),
        free: await addJuror(t.app, 4414, 'Conflict House Four'),
      };
      exam = await newExam(cat, edition);
      await admin.put(`/api/exams/${exam}/panel`, { jury_ids: Object.values(juror) });
    });

    it('declares, lists, audits and withdraws conflicts of each kind (admins), refusing bad ones', async () => {
      const before = await auditCount('jury.conflict.declare');
      const company = await admin.post(`/api/juries/${juror.company}/conflicts`, { kind: 'company', name: 'maju jaya', reason: 'Former employer' });
      expect(company.status).toBe(201);
      expect(company.body.data).toMatchObject({ jury_id: juror.company, kind: 'company', name: 'maju jaya', declared_by: 'admin', contest_id: null });
      expect((await admin.post(`/api/juries/${juror.entry}/conflicts`, { kind: 'entry', contest_id: entry, reason: 'Mentored the team' })).status).toBe(201);
      expect(
        (await admin.post(`/api/juries/${juror.declaredBrand}/conflicts`, { kind: 'brand', name: 'Kopi Kenangan', reason: 'Consults for it' })).status,
      ).toBe(201);
      expect(await auditCount('jury.conflict.declare')).toBe(before + 3);
      expect((await admin.post(`/api/juries/${juror.company}/conflicts`, { kind: 'company', name: 'MAJU JAYA PT', reason: 'Again' })).status).toBe(409);
      expect((await admin.post(`/api/juries/${juror.company}/conflicts`, { kind: 'brand', name: 'Sdn Bhd', reason: 'Nothing to compare' })).status).toBe(422);
      expect((await admin.post(`/api/juries/${juror.company}/conflicts`, { kind: 'entry', contest_id: 999999, reason: 'Missing entry' })).status).toBe(422);
      expect((await admin.post(`/api/juries/${juror.company}/conflicts`, { kind: 'entry', reason: 'No entry given' })).status).toBe(422);
      expect((await admin.post('/api/juries/999999/conflicts', { kind: 'company', name: 'X Co', reason: 'No juror' })).status).toBe(404);
      const listed = (await admin.get(`/api/juries/${juror.company}/conflicts`)).body.data;
      expect(listed).toHaveLength(1);
      const extra = (await admin.post(`/api/juries/${juror.free}/conflicts`, { kind: 'company', name: 'Temporary Co', reason: 'To withdraw' })).body.data;
      expect((await admin.delete(`/api/juries/${juror.company}/conflicts/${extra.id}`)).status).toBe(404);
      expect((await admin.delete(`/api/juries/${juror.free}/conflicts/${extra.id}`)).status).toBe(204);
      expect((await admin.get(`/api/juries/${juror.free}/conflicts`)).body.data).toEqual([]);
      expect(await auditCount('jury.conflict.delete')).toBeGreaterThanOrEqual(1);
      const jc = await jurorApi(juror.free);
      expect((await jc.get(`/api/juries/${juror.free}/conflicts`)).status).toBe(403);
    });

    it('refuses each conflict by hand, by auto-assign and through the entity write path, naming the rule', async () => {
      const expected: Array<[number, string]> = [
        [juror.brand, 'conflict_brand'],
        [juror.company, 'declared_company'],
        [juror.entry, 'declared_entry'],
        [juror.declaredBrand, 'declared_brand'],
      ];
      const entity = t.app.entities.byName.get('assignment')!;
      for (const [jury_id, rule] of expected) {
        const res = await assign(exam, entry, jury_id);
        expect(res.status, rule).toBe(422);
        expect(res.body.errors).toEqual([{ path: 'jury_id', keyword: rule, messageKey: `judging.rules.${rule}`, params: {} }]);
        await expect(
          t.app.db
            .transaction()
            .execute((db) => runBeforeWrite({ entity, operation: 'create', data: { exam_id: exam, contest_id: entry, jury_id, status: 'assigned' }, db })),
        ).rejects.toMatchObject({ statusCode: 422, errors: [expect.objectContaining({ keyword: rule })] });
      }
      const plan = (await admin.post(`/api/exams/${exam}/auto-assign`, { per_entry: 5, dry_run: true })).body.data;
      expect(plan.planned.filter((p: any) => p.contest_id === entry)).toEqual([{ contest_id: entry, jury_id: juror.free }]);
      expect(plan.short).toEqual([{ contest_id: entry, assigned: 1, missing: 4, conflicts: 4, reason: 'conflict_of_interest' }]);
      expect(plan.planned.filter((p: any) => p.contest_id === plain)).toHaveLength(5);
      const matrix = (await admin.get(`/api/exams/${exam}/matrix`)).body.data;
      expect(
        matrix.conflict_rules
          .filter((c: any) => c.contest_id === entry)
          .map((c: any) => c.rules[0])
          .sort(),
      ).toEqual(expected.map(([, r]) => r).sort());
      // Withdrawn, the conflict no longer refuses.
      const declared = (await admin.get(`/api/juries/${juror.company}/conflicts`)).body.data[0];
      await admin.delete(`/api/juries/${juror.company}/conflicts/${declared.id}`);
      expect((await assign(exam, entry, juror.company)).status).toBe(201);
    });

    it('"I know this entry": the juror declares a conflict with the entry and recuses, blind; it holds in later exams', async () => {
      const created = (await assign(exam, entry, juror.free)).body.data;
      const jc = await jurorApi(juror.free);
      expect((await admin.post(`/api/assignments/${created.id}/conflict`, { reason: 'I know the team' })).status).toBe(403);
      expect((await jc.post(`/api/assignments/${created.id}/conflict`, { reason: 'x' })).status).toBe(422);
      const res = await jc.post(`/api/assignments/${created.id}/conflict`, { reason: 'I worked on this campaign' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: created.id, status: 'recused', recuse_reason: 'I worked on this campaign' });
      expect(res.body.data).not.toHaveProperty('contest_id');
      expect(JSON.stringify(res.body)).not.toContain(`"contest_id"`);
      expect((await jc.post(`/api/assignments/${created.id}/conflict`, { reason: 'Twice' })).status).toBe(409);
      const listed = (await admin.get(`/api/juries/${juror.free}/conflicts`)).body.data;
      expect(listed).toEqual([expect.objectContaining({ kind: 'entry', contest_id: entry, declared_by: 'juror', reason: 'I worked on this campaign' })]);
      const other = await addJuror(t.app, 4420, 'Conflict House Five');
      await admin.put(`/api/exams/${exam}/panel`, { jury_ids: [...Object.values(juror), other] });
      const theirs = (await assign(exam, entry, other)).body.data;
      expect((await jc.post(`/api/assignments/${theirs.id}/conflict`, { reason: 'Not mine' })).status).toBe(403);
      const again = await assign(exam, entry, juror.free);
      expect(keywords(again.body)).toEqual(['declared_entry', 'recused']);
    });
  });

  describe('blind codes', () => {
    it('names each entry by a code unique in its exam, never by the contest id, and shows admins both', async () => {
      const edition = await addEdition(2035);
      const cat = await addCategory(t.app, 'Blind Digital');
      const customer = await addCustomer(t.app, 4500, 'Blind Agency');
      const entries: number[] = [];
      for (let i = 0; i < 12; i++) entries.push(await addEntry(customer, cat, 'approved', edition));
      const jurors = [await addJuror(t.app, 4501, 'Blind House A'), await addJuror(t.app, 4502, 'Blind House B')];
      const exam = await newExam(cat, edition);
      await admin.put(`/api/exams/${exam}/panel`, { jury_ids: jurors });
      expect((await admin.post(`/api/exams/${exam}/auto-assign`, { per_entry: 2, dry_run: false })).status).toBe(200);
      const stored = (
        await sql<{ contest_id: number; code: string }>`select contest_id, code from entry_codes where exam_id = ${exam} order by contest_id`.execute(t.app.db)
      ).rows;
      expect(stored.map((r) => r.contest_id)).toEqual(entries);
      expect(new Set(stored.map((r) => r.code)).size).toBe(12);
      expect(stored.every((r) => CODE.test(r.code) && r.code.startsWith('R1-'))).toBe(true);

      const jc = await jurorApi(jurors[0]!);
      const answer = await jc.get('/api/jury/assignments');
      const mine = answer.body.data.assignments.filter((a: any) => a.exam_id === exam);
      expect(mine).toHaveLength(12);
      const byCode = new Map(stored.map((r) => [r.code, r.contest_id]));
      for (const a of mine) {
        expect(a.code).toMatch(CODE);
        expect(byCode.has(a.code)).toBe(true);
        expect(a.entry).not.toHaveProperty('id');
        expect(Object.keys(a)).not.toContain('contest_id');
      }
      expect(JSON.stringify(answer.body)).not.toMatch(/"(contest_id|customer_id|campaign_id)"/);
      // Stable: the same codes on the next read.
      const again = (await jc.get('/api/jury/assignments')).body.data.assignments.filter((a: any) => a.exam_id === exam);
      expect(again.map((a: any) => a.code)).toEqual(mine.map((a: any) => a.code));
      const grade = await jc.put(`/api/assignments/${mine[0].id}/grade`, { scores: { idea: 5 }, submit: false });
      expect(grade.status).toBe(200);
      expect(grade.body.data).not.toHaveProperty('contest_id');

      const matrix = (await admin.get(`/api/exams/${exam}/matrix`)).body.data;
      expect(matrix.entries.map((e: any) => [e.id, e.code])).toEqual(stored.map((r) => [r.contest_id, r.code]));
      const listed = (await admin.get(`/api/exams/${exam}/entries`)).body.data;
      expect(listed.map((e: any) => e.code)).toEqual(stored.map((r) => r.code));
    });
  });

  describe('one Round 1 exam per category and edition', () => {
    it('refuses a second Round 1 exam (409 exam_duplicate_round) unless it is a parallel panel', async () => {
      const edition = await addEdition(2036);
      const other = await addEdition(2037);
      const cat = await addCategory(t.app, 'Duplicate Round');
      const body = { name: 'Round 1 again', category_id: cat, round: 1, max_score: 100, criteria: CRITERIA, edition_id: edition };
      expect((await admin.post('/api/exams', body)).status).toBe(201);
      const second = await admin.post('/api/exams', body);
      expect(second.status).toBe(409);
      expect(second.body.errors[0]).toMatchObject({ keyword: 'exam_duplicate_round', messageKey: 'judging.errors.exam_duplicate_round' });
      expect((await admin.post('/api/exams', { ...body, parallel_panel: true })).status).toBe(201);
      const elsewhere = await admin.post('/api/exams', { ...body, edition_id: other });
      expect(elsewhere.status).toBe(201);
      expect((await admin.put(`/api/exams/${elsewhere.body.data.id}`, { ...body, edition_id: edition })).status).toBe(409);
      expect((await admin.post('/api/exams', { ...body, round: 2 })).status).toBe(201);
      const count = await sql<{ n: number }>`select count(*)::int as n from exams where category_id = ${cat}`.execute(t.app.db);
      expect(count.rows[0]!.n).toBe(4);
    });
  });
});
