import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type MailMessage, renderedMail } from '../../src/server/auth/mailer.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { addCategory, addContests, addCustomer, addExam, addJuror, CRITERIA, jurorClient } from '../helpers/judging-fixture.js';
import { startSignedInApp, type TestApp, TestClient } from '../helpers/test-app.js';

const keywords = (body: any): string[] => (body.errors ?? []).map((e: any) => e.keyword).sort();
const paths = (body: any): string[] => (body.errors ?? []).map((e: any) => e.path).sort();

describe.each(testDatabaseKinds())('judging API on %s', (kind) => {
  let t: TestApp;
  let admin: TestClient;
  let film: number;
  let print: number;

  beforeAll(async () => {
    ({ t, client: admin } = await startSignedInApp(kind));
    film = await addCategory(t.app, 'Best Film');
    print = await addCategory(t.app, 'Best Print');
  });
  afterAll(async () => t?.close());

  describe('examinations', () => {
    it('stores structured criteria and moves status only in the order draft → open → closed → final', async () => {
      const id = await addExam(admin, film, 1, false);
      const read = await admin.get(`/api/exams/${id}`);
      expect(read.body.data).toMatchObject({ status: 'draft', criteria: CRITERIA });
      const skip = await admin.post(`/api/exams/${id}/status`, { status: 'closed' });
      expect(skip.status).toBe(409);
      expect(skip.body.errors[0]).toMatchObject({ keyword: 'transition', messageKey: 'judging.errors.bad_transition' });
      expect((await admin.post(`/api/exams/${id}/status`, { status: 'open' })).status).toBe(200);
      const body = { name: 'Exam', category_id: film, round: 1, max_score: 100, criteria: CRITERIA };
      const locked = await admin.put(`/api/exams/${id}`, { ...body, criteria: [{ key: 'idea', label: 'Idea', weight: 1, maximum: 10 }] });
      expect(locked.status).toBe(422);
      expect(locked.body.errors[0]).toMatchObject({ path: 'criteria', messageKey: 'judging.errors.criteria_locked' });
      expect((await admin.put(`/api/exams/${id}`, { ...body, name: 'Renamed while open' })).status).toBe(200);
      expect((await admin.post(`/api/exams/${id}/status`, { status: 'closed' })).body.data.status).toBe('closed');
      expect((await admin.post(`/api/exams/${id}/status`, { status: 'open' })).body.data.status).toBe('open');
      expect((await admin.post(`/api/exams/${id}/status`, { status: 'closed' })).status).toBe(200);
      expect((await admin.post(`/api/exams/${id}/status`, { status: 'final' })).body.data.status).toBe('final');
      expect((await admin.post(`/api/exams/${id}/status`, { status: 'open' })).status).toBe(409);
      const audit = await sql<{ n: number }>`select count(*)::int as n from audit_log where action = 'exam.status' and entity_id = ${String(id)}`.execute(
        t.app.db,
      );
      expect(audit.rows[0]!.n).toBe(5);
    });

    it('finalises through the status move the way POST /finalise does: the results snapshot is stored and grades lock', async () => {
      const id = await addExam(admin, film, 1, true, { parallel_panel: true });
      const customer = await addCustomer(t.app, 900, 'Snapshot Agency');
      const [entry] = (await addContests(t.app, customer, film, 1)) as [number];
      const juror = await addJuror(t.app, 900, 'Snapshot Jury Co');
      expect((await admin.post(`/api/exams/${id}/assignments`, { contest_id: entry, jury_id: juror })).status).toBe(201);
      const jurorApi = await jurorClient(t.app, juror);
      const assignment = (await jurorApi.get('/api/jury/assignments')).body.data.assignments.find((a: any) => a.exam_id === id);
      expect((await jurorApi.put(`/api/assignments/${assignment.id}/grade`, { scores: { idea: 8, craft: 4 }, submit: true })).status).toBe(200);
      expect((await admin.post(`/api/exams/${id}/status`, { status: 'final' })).status).toBe(409);
      expect((await admin.post(`/api/exams/${id}/status`, { status: 'closed' })).status).toBe(200);
      const fin = await admin.post(`/api/exams/${id}/status`, { status: 'final' });
      expect(fin.status).toBe(200);
      expect(fin.body.data.status).toBe('final');
      const lock = await sql<{ n: number }>`select count(*)::int as n from exam_locks where exam_id = ${id}`.execute(t.app.db);
      expect(lock.rows[0]!.n).toBe(1);
      const results = await admin.get(`/api/exams/${id}/results`);
      expect(results.body.data.finalised).not.toBeNull();
      expect(results.body.data.submitted).toBe(1);
      const actions = await sql<{
        action: string;
      }>`select action from audit_log where entity = 'exam' and entity_id = ${String(id)} and action in ('results.finalise', 'exam.status') order by id`.execute(
        t.app.db,
      );
      expect(actions.rows.map((r) => r.action)).toEqual(['exam.status', 'exam.status', 'results.finalise', 'exam.status']);
      // A second finalise by either path is refused; reopening goes through results (with a reason).
      expect((await admin.post(`/api/exams/${id}/finalise`)).status).toBe(409);
      expect((await admin.post(`/api/exams/${id}/status`, { status: 'final' })).status).toBe(409);
      expect((await admin.post(`/api/exams/${id}/reopen`, { reason: 'A late grade' })).body.data.exam.status).toBe('closed');
    });

    it('refuses to open an exam without criteria, duplicate criterion keys, and a status not in the list', async () => {
      const bare = (await admin.post('/api/exams', { name: 'No criteria', category_id: film, round: 1, max_score: 100, parallel_panel: true })).body.data.id;
      const open = await admin.post(`/api/exams/${bare}/status`, { status: 'open' });
      expect(open.status).toBe(422);
      expect(open.body.errors[0].messageKey).toBe('judging.errors.no_criteria');
      const dup = await admin.post('/api/exams', { name: 'Dup', category_id: film, round: 1, max_score: 100, criteria: [CRITERIA[0], CRITERIA[0]] });
      expect(dup.status).toBe(422);
      expect(dup.body.errors[0]).toMatchObject({ path: 'criteria.1.key', messageKey: 'judging.errors.criterion_key_unique' });
      expect((await admin.post(`/api/exams/${bare}/status`, { status: 'archived' })).status).toBe(422);
    });
  });

  describe('assignment rules', () => {
    let exam: number;
    let entry: number;
    let printEntry: number;
    let juror: number;
    let variant = 0;

    beforeAll(async () => {
      exam = await addExam(admin, film, 1, true, { parallel_panel: true });
      const customer = await addCustomer(t.app, 1, 'PT. Maju Jaya, Tbk');
      [entry] = (await addContests(t.app, customer, film, 1)) as [number];
      [printEntry] = (await addContests(t.app, customer, print, 1)) as [number];
      juror = await addJuror(t.app, 1, 'Lain Studio Sdn Bhd');
    });

    it('assigns an eligible juror, once', async () => {
      const res = await admin.post(`/api/exams/${exam}/assignments`, { contest_id: entry, jury_id: juror });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ exam_id: exam, contest_id: entry, jury_id: juror, status: 'assigned' });
      expect((await admin.post(`/api/exams/${exam}/assignments`, { contest_id: entry, jury_id: juror })).status).toBe(409);
    });

    it('unassigns an assignment not yet started, and no other', async () => {
      const extra = await addJuror(t.app, 7, 'Extra Studio');
      const created = (await admin.post(`/api/exams/${exam}/assignments`, { contest_id: entry, jury_id: extra })).body.data;
      expect((await admin.delete(`/api/exams/${exam}/assignments/${created.id}`)).status).toBe(204);
      expect((await admin.delete(`/api/exams/${exam}/assignments/${created.id}`)).status).toBe(404);
      expect((await admin.delete(`/api/assignments/${created.id}`)).status).toBe(405);
    });

    it('refuses to unassign an assignment a grade holds, even one whose status says not started (a 409, not a 500)', async () => {
      const holder = await addJuror(t.app, 8, 'Holder Studio');
      const created = (await admin.post(`/api/exams/${exam}/assignments`, { contest_id: entry, jury_id: holder })).body.data;
      // As the fuzzed API left it: a grade pointing at an assignment still marked 'assigned'.
      await sql`insert into grades (assignment_id, exam_id, contest_id, jury_id, scores, total, score, status)
        values (${created.id}, ${exam}, ${entry}, ${holder}, '{}'::jsonb, 0, 0, 'draft')`.execute(t.app.db);
      const res = await admin.delete(`/api/exams/${exam}/assignments/${created.id}`);
      expect(res.status).toBe(409);
      expect(res.body.errors[0]).toMatchObject({ messageKey: 'judging.errors.assignment_started' });
      await sql`delete from grades where assignment_id = ${created.id}`.execute(t.app.db);
      expect((await admin.delete(`/api/exams/${exam}/assignments/${created.id}`)).status).toBe(204);
    });

    it('answers 409 for any delete a foreign key refuses, as either database reports it', async () => {
      const { isStillReferenced } = await import('../../src/server/errors.js');
      await sql`create table if not exists probe_parent (id int primary key)`.execute(t.app.db);
      await sql`create table if not exists probe_child (parent int references probe_parent on delete restrict)`.execute(t.app.db);
      await sql`insert into probe_parent values (1) on conflict do nothing`.execute(t.app.db);
      await sql`insert into probe_child values (1)`.execute(t.app.db);
      const refused = await sql`delete from probe_parent`.execute(t.app.db).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isStillReferenced(refused)).toBe(true);
      await sql`drop table probe_child, probe_parent`.execute(t.app.db);
    });

    it('refuses an entry of another category, a juror not on the panel (of another round, no panel saved) and an inactive juror, naming each rule', async () => {
      const other = await admin.post(`/api/exams/${exam}/assignments`, { contest_id: printEntry, jury_id: juror });
      expect(other.status).toBe(422);
      expect(keywords(other.body)).toEqual(['category']);
      expect(other.body.errors[0].messageKey).toBe('judging.rules.category');
      const round2 = await addJuror(t.app, 2, null, 2);
      expect(keywords((await admin.post(`/api/exams/${exam}/assignments`, { contest_id: entry, jury_id: round2 })).body)).toEqual(['not_on_panel']);
      const inactive = await addJuror(t.app, 3, null, 1, false);
      const res = await admin.post(`/api/exams/${exam}/assignments`, { contest_id: entry, jury_id: inactive });
      expect(res.status).toBe(422);
      expect(keywords(res.body)).toEqual(['inactive']);
    });

    it.each([
      ['the same name', 'PT. Maju Jaya, Tbk'],
      ['another case', 'pt maju jaya tbk'],
      ['other punctuation', 'Maju-Jaya'],
      ['no legal suffix', 'MAJU JAYA'],
      ['a different legal form', 'Maju Jaya Sdn. Bhd.'],
    ])("refuses a juror whose company matches the submittor's with %s (%s)", async (_label, company) => {
      const conflicted = await addJuror(t.app, 100 + ++variant, company);
      const res = await admin.post(`/api/exams/${exam}/assignments`, { contest_id: entry, jury_id: conflicted });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ path: 'jury_id', keyword: 'conflict_company', messageKey: 'judging.rules.conflict_company', params: {} }]);
      expect(res.body.message).toMatch(/Conflict of interest/);
    });

    it("allows a juror whose company only shares a word with the submittor's", async () => {
      const near = await addJuror(t.app, 4, 'Maju Jaya Digital');
      expect((await admin.post(`/api/exams/${exam}/assignments`, { contest_id: entry, jury_id: near })).status).toBe(201);
    });

    it('refuses assignments on a closed exam and never re-assigns an entry a juror recused from', async () => {
      const j = await addJuror(t.app, 5, 'Solo Works');
      const created = (await admin.post(`/api/exams/${exam}/assignments`, { contest_id: entry, jury_id: j })).body.data;
      const jc = await jurorClient(t.app, j);
      expect((await jc.post(`/api/assignments/${created.id}/recuse`, { reason: 'x' })).status).toBe(422);
      const recused = await jc.post(`/api/assignments/${created.id}/recuse`, { reason: 'I mentored this team' });
      expect(recused.status).toBe(200);
      expect(recused.body.data).toMatchObject({ status: 'recused', recuse_reason: 'I mentored this team' });
      // Another exam of the same category (Round 1 again): the recusal still holds.
      const second = await addExam(admin, film, 1, true, { parallel_panel: true });
      const again = await admin.post(`/api/exams/${second}/assignments`, { contest_id: entry, jury_id: j });
      expect(again.status).toBe(422);
      expect(keywords(again.body)).toEqual(['recused']);
      await admin.post(`/api/exams/${second}/status`, { status: 'closed' });
      const other = await addJuror(t.app, 6, null);
      const closed = await admin.post(`/api/exams/${second}/assignments`, { contest_id: entry, jury_id: other });
      expect(keywords(closed.body)).toEqual(['exam_locked']);
    });
  });

  describe('grades and the blind portal', () => {
    let exam: number;
    let entries: number[];
    let jurors: number[];
    let clients: TestClient[];
    // Jurors never see the contest's id: the test finds their assignment of an entry by its id.
    const assignmentOf = async (c: TestClient, entry: number) => {
      const ids = (await sql<{ id: number }>`select id from assignments where exam_id = ${exam} and contest_id = ${entry}`.execute(t.app.db)).rows.map(
        (r) => r.id,
      );
      return (await c.get('/api/jury/assignments')).body.data.assignments.find((a: any) => ids.includes(a.id));
    };

    beforeAll(async () => {
      const cat = await addCategory(t.app, 'Best Craft');
      exam = await addExam(admin, cat);
      const customer = await addCustomer(t.app, 77, 'Secret Agency Sdn Bhd', { name: 'Hidden Person', phone: '+60 19-555 0101' });
      entries = await addContests(t.app, customer, cat, 3);
      jurors = [await addJuror(t.app, 20, 'A Co'), await addJuror(t.app, 21, 'B Co')];
      for (const e of entries) for (const j of jurors) await admin.post(`/api/exams/${exam}/assignments`, { contest_id: e, jury_id: j });
      clients = [await jurorClient(t.app, jurors[0]!), await jurorClient(t.app, jurors[1]!)];
    });

    it('sends a juror only their own work, with nothing identifying the entrant', async () => {
      const res = await clients[0]!.get('/api/jury/assignments');
      expect(res.status).toBe(200);
      const mine = res.body.data.assignments.filter((a: any) => a.exam_id === exam);
      expect(mine).toHaveLength(3);
      expect(res.body.data.assignments.every((a: any) => a.entry.strategy !== undefined)).toBe(true);
      const text = JSON.stringify(res.body);
      for (const secret of [
        'Hidden Person',
        'submittor77@entrant.test',
        '+60 19-555 0101',
        'Secret Agency',
        'Case study by the agency',
        'customer',
        'company',
        'agency',
        'email',
        'phone',
      ]) {
        expect(text).not.toContain(secret);
      }
      expect(res.body.data.exams.find((e: any) => e.id === exam)).toMatchObject({ criteria: CRITERIA, progress: { total: 3, assigned: 3, submitted: 0 } });
      expect((await clients[0]!.get(`/api/jury/assignments?jury_id=${jurors[1]}`)).status).toBe(403);
    });

    it('gives a juror 403 on every console endpoint, and an admin the portal read-only for any juror', async () => {
      for (const url of ['/api/contests', '/api/grades', '/api/customers', '/api/dashboard', `/api/exams/${exam}/matrix`, '/api/judging/progress']) {
        expect((await clients[0]!.get(url)).status, url).toBe(403);
      }
      expect((await clients[0]!.post(`/api/exams/${exam}/auto-assign`, { per_entry: 1, dry_run: true })).status).toBe(403);
      const viewAs = await admin.get(`/api/jury/assignments?jury_id=${jurors[0]}`);
      expect(viewAs.body.data).toMatchObject({ read_only: true, juror: { id: jurors[0] } });
      const a = await assignmentOf(clients[0]!, entries[0]!);
      expect((await admin.put(`/api/assignments/${a.id}/grade`, { scores: { idea: 1 } })).status).toBe(403);
    });

    it('saves a draft with the weighted total computed on the server, then submits it read-only', async () => {
      const a = await assignmentOf(clients[0]!, entries[0]!);
      const draft = await clients[0]!.put(`/api/assignments/${a.id}/grade`, { scores: { idea: 8 }, remarks: 'Strong idea', submit: false, total: 100 });
      expect(draft.status).toBe(422); // total is never taken from the client
      const saved = await clients[0]!.put(`/api/assignments/${a.id}/grade`, { scores: { idea: 8 }, remarks: 'Strong idea', submit: false });
      expect(saved.status).toBe(200);
      // 100 × (3 × 8/10 + 1 × 0/5) / 4 = 60
      expect(saved.body.data).toMatchObject({ status: 'draft', total: 60, score: 60, scores: { idea: 8 }, submitted_at: null });
      expect((await assignmentOf(clients[0]!, entries[0]!)).status).toBe('in_progress');
      const submitted = await clients[0]!.put(`/api/assignments/${a.id}/grade`, { scores: { idea: 8, craft: 4 }, remarks: 'Strong idea', submit: true });
      // 100 × (3 × 0.8 + 1 × 0.8) / 4 = 80
      expect(submitted.body.data).toMatchObject({ status: 'submitted', total: 80, score: 80 });
      expect(submitted.body.data.submitted_at).toBeTruthy();
      const after = await assignmentOf(clients[0]!, entries[0]!);
      expect(after).toMatchObject({ status: 'submitted', grade: { status: 'submitted', total: 80, remarks: 'Strong idea' } });
      const change = await clients[0]!.put(`/api/assignments/${a.id}/grade`, { scores: { idea: 1, craft: 1 }, submit: false });
      expect(change.status).toBe(409);
      expect(change.body.errors[0].messageKey).toBe('judging.errors.grade_submitted');
      // An admin reopens it (audited); the juror can change it again.
      const grade = (await sql<{ id: number }>`select id from grades where assignment_id = ${a.id}`.execute(t.app.db)).rows[0]!;
      expect((await admin.post(`/api/grades/${grade.id}/reopen`, { reason: 'Scores need a second look' })).body.data.status).toBe('draft');
      expect((await clients[0]!.put(`/api/assignments/${a.id}/grade`, { scores: { idea: 10, craft: 5 }, submit: true })).body.data.total).toBe(100);
      const audit = await sql<{ action: string }>`select action from audit_log where entity = 'grade' and entity_id = ${String(grade.id)} order by id`.execute(
        t.app.db,
      );
      expect(audit.rows.map((r) => r.action)).toEqual(['grade.save', 'grade.submit', 'grade.reopen', 'grade.submit']);
    });

    it('names each criterion out of range, unknown, or missing on submit (422)', async () => {
      const a = await assignmentOf(clients[0]!, entries[1]!);
      const range = await clients[0]!.put(`/api/assignments/${a.id}/grade`, { scores: { idea: 11, craft: -1, taste: 3 }, submit: false });
      expect(range.status).toBe(422);
      expect(paths(range.body)).toEqual(['scores.craft', 'scores.idea', 'scores.taste']);
      expect(keywords(range.body)).toEqual(['range', 'range', 'unknown']);
      const missing = await clients[0]!.put(`/api/assignments/${a.id}/grade`, { scores: { idea: 5 }, submit: true });
      expect(missing.status).toBe(422);
      expect(missing.body.errors).toEqual([
        { path: 'scores.craft', keyword: 'required', messageKey: 'judging.errors.score_required', params: { criterion: 'craft', label: 'Craft' } },
      ]);
    });

    it("never lets a juror write or read another juror's grade", async () => {
      const theirs = await assignmentOf(clients[1]!, entries[0]!);
      const res = await clients[0]!.put(`/api/assignments/${theirs.id}/grade`, { scores: { idea: 1 }, submit: false });
      expect(res.status).toBe(403);
      const other = await clients[1]!.get('/api/jury/assignments');
      expect(other.body.data.assignments.every((a: any) => a.grade === null || a.grade.remarks !== 'Strong idea')).toBe(true);
      expect((await clients[1]!.get('/api/grades')).status).toBe(403);
    });

    it('refuses every grade on a closed exam', async () => {
      const a = await assignmentOf(clients[1]!, entries[2]!);
      await admin.post(`/api/exams/${exam}/status`, { status: 'closed' });
      const res = await clients[1]!.put(`/api/assignments/${a.id}/grade`, { scores: { idea: 5, craft: 5 }, submit: true });
      expect(res.status).toBe(409);
      expect(res.body.errors[0].messageKey).toBe('judging.errors.exam_not_open');
      await admin.post(`/api/exams/${exam}/status`, { status: 'open' });
      expect((await clients[1]!.put(`/api/assignments/${a.id}/grade`, { scores: { idea: 5, craft: 5 }, submit: true })).status).toBe(200);
    });

    it('reports progress per exam, juror and category, and reminds jurors with work left', async () => {
      const progress = await admin.get(`/api/judging/progress?exam_id=${exam}`);
      expect(progress.body.data.exams).toEqual([expect.objectContaining({ id: exam, total: 6, submitted: 2, assigned: 4, in_progress: 0 })]);
      const byJuror = Object.fromEntries(progress.body.data.jurors.map((j: any) => [j.jury_id, j]));
      expect(byJuror[jurors[0]!]).toMatchObject({ submitted: 1, in_progress: 0, assigned: 2 });
      expect(byJuror[jurors[1]!]).toMatchObject({ submitted: 1, assigned: 2 });
      expect(progress.body.data.categories).toEqual([expect.objectContaining({ name: 'Best Craft', round: 1, total: 6, submitted: 2, recused: 0 })]);
      const reminders = await admin.post('/api/judging/reminders', { exam_id: exam });
      expect(reminders.body.data).toMatchObject({ sent: 2, failed: 0, entries: 4, transport: 'log' });
      expect(reminders.body.data.jurors.map((j: any) => j.pending).sort()).toEqual([2, 2]);
      // A mail that cannot be sent is counted, and does not stop the others.
      const send = vi.spyOn(t.app.mailer, 'send').mockRejectedValueOnce(new Error('mail server down'));
      const partly = await admin.post('/api/judging/reminders', { exam_id: exam });
      send.mockRestore();
      expect(partly.status).toBe(200);
      expect(partly.body.data).toMatchObject({ sent: 1, failed: 1, entries: 2 });
      expect(partly.body.data.jurors).toHaveLength(1);
    });
  });

  describe('auto-assign', () => {
    let exam: number;
    let jurors: number[];
    let entries: number[];
    const conflictCompany = 'Kancil Kreatif Sdn Bhd';

    beforeAll(async () => {
      const cat = await addCategory(t.app, 'Best Generated');
      // Exactly 17 eligible jurors: the other suites' jurors step aside.
      await sql`update juries set is_active = false`.execute(t.app.db);
      jurors = [];
      for (let j = 0; j < 17; j++) jurors.push(await addJuror(t.app, 300 + j, j < 2 ? 'KANCIL KREATIF' : `Jury House ${j}`));
      entries = [];
      for (let c = 0; c < 20; c++) {
        const customer = await addCustomer(t.app, 500 + c, c === 0 ? conflictCompany : `Agency ${c} Sdn Bhd`);
        entries.push(...(await addContests(t.app, customer, cat, 10)));
      }
      exam = await addExam(admin, cat);
    });

    const savedPairs = async () =>
      (
        await sql<{
          contest_id: number;
          jury_id: number;
        }>`select contest_id, jury_id from assignments where exam_id = ${exam} order by contest_id, jury_id`.execute(t.app.db)
      ).rows;

    it('previews 3 jurors per entry on 200 entries × 17 jurors, balanced, without conflicts, deterministically', async () => {
      const first = await admin.post(`/api/exams/${exam}/auto-assign`, { per_entry: 3, dry_run: true });
      expect(first.status).toBe(200);
      const plan = first.body.data;
      expect(plan.planned).toHaveLength(600);
      expect(plan.short).toEqual([]);
      expect(await savedPairs()).toHaveLength(0);
      const counts = plan.load.map((l: any) => l.count);
      expect(counts.reduce((a: number, b: number) => a + b, 0)).toBe(600);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
      const perEntry = new Map<number, Set<number>>();
      for (const p of plan.planned) perEntry.set(p.contest_id, (perEntry.get(p.contest_id) ?? new Set()).add(p.jury_id));
      expect([...perEntry.values()].every((s) => s.size === 3)).toBe(true);
      const conflicted = entries.slice(0, 10);
      expect(plan.planned.filter((p: any) => conflicted.includes(p.contest_id) && jurors.slice(0, 2).includes(p.jury_id))).toEqual([]);
      const second = await admin.post(`/api/exams/${exam}/auto-assign`, { per_entry: 3, dry_run: true });
      expect(second.body.data).toEqual(plan);
    });

    it('saves once even when two runs race, and a later run only fills gaps', async () => {
      const [a, b] = await Promise.all([
        admin.post(`/api/exams/${exam}/auto-assign`, { per_entry: 3, dry_run: false }),
        admin.post(`/api/exams/${exam}/auto-assign`, { per_entry: 3, dry_run: false }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect([a.body.data.planned.length, b.body.data.planned.length].sort((x, y) => x - y)).toEqual([0, 600]);
      const pairs = await savedPairs();
      expect(pairs).toHaveLength(600);
      expect(new Set(pairs.map((p) => `${p.contest_id}:${p.jury_id}`)).size).toBe(600);
      // Drop two assignments and recuse one: the next run adds exactly three, never the recused juror.
      await sql`delete from assignments where id in (select id from assignments where exam_id = ${exam} order by id limit 2)`.execute(t.app.db);
      const target = (
        await sql<{
          id: number;
          jury_id: number;
          contest_id: number;
        }>`select id, jury_id, contest_id from assignments where exam_id = ${exam} order by id desc limit 1`.execute(t.app.db)
      ).rows[0]!;
      await admin.post(`/api/assignments/${target.id}/recuse`, { reason: 'Admin recorded a recusal' });
      const fill = await admin.post(`/api/exams/${exam}/auto-assign`, { per_entry: 3, dry_run: false });
      expect(fill.body.data.planned).toHaveLength(3);
      expect(fill.body.data.planned).not.toContainEqual({ contest_id: target.contest_id, jury_id: target.jury_id });
      const loads = fill.body.data.load.map((l: any) => l.count);
      expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(1);
      expect((await admin.post(`/api/exams/${exam}/auto-assign`, { per_entry: 3, dry_run: false })).body.data.planned).toEqual([]);
    });

    it('names the entries that cannot get K jurors and why', async () => {
      const res = await admin.post(`/api/exams/${exam}/auto-assign`, { per_entry: 16, dry_run: true });
      const short = res.body.data.short;
      expect(short.map((s: any) => s.contest_id)).toEqual(entries.slice(0, 10));
      expect(short[0]).toMatchObject({ missing: 1, reason: 'conflict_of_interest' });
      const matrix = await admin.get(`/api/exams/${exam}/matrix`);
      expect(matrix.body.data.entries).toHaveLength(200);
      expect(matrix.body.data.jurors).toHaveLength(17);
      expect(matrix.body.data.conflicts).toHaveLength(20);
      expect(matrix.body.data.entries.every((e: any) => e.count === 3)).toBe(true);
    });
  });

  describe('jury applicants', () => {
    it('approves an application into a juror, rejects another with a reason, and decides each once', async () => {
      const a = (
        await admin.post('/api/applicants', { name: 'Farah Aziz', email: 'Farah@Example.my', company: 'Kilau Creative', country: 'MY', expertise: [film] })
      ).body.data;
      expect(a).toMatchObject({ status: 'applied', email: 'farah@example.my', expertise: [film] });
      const outbox: MailMessage[] = [];
      const send = vi.spyOn(t.app.mailer, 'send').mockImplementation(async (message) => void outbox.push(renderedMail(message)));
      const approved = await admin.post(`/api/applicants/${a.id}/approve`, { round: 2 });
      send.mockRestore();
      expect(approved.status).toBe(200);
      expect(approved.body.data.status).toBe('approved');
      const juror = await admin.get(`/api/juries/${approved.body.data.jury_id}`);
      expect(juror.body.data).toMatchObject({ name: 'Farah Aziz', email: 'farah@example.my', company: 'Kilau Creative', round: 2, is_active: true });
      // The juror's account: invited, linked to the juror, and its set-password link mailed.
      const account = (await admin.get('/api/accounts')).body.data.find((u: any) => u.email === 'farah@example.my');
      expect(account).toMatchObject({ id: approved.body.data.account_id, role: 'juror', jury_id: approved.body.data.jury_id, status: 'invited' });
      // Two mails: the approval (the round, the portal) and the invitation with its set-password link.
      expect(outbox.map((m) => m.subject)).toEqual(['Awards CMS: your application to the jury was approved', 'You are invited to Awards CMS']);
      expect(outbox.every((m) => m.to === 'farah@example.my')).toBe(true);
      expect(outbox[0]!.text).toContain('Round 2');
      const token = new URL(/https?:\/\/\S+/.exec(outbox[1]!.text)![0]).searchParams.get('token')!;
      const anonymous = await new TestClient(t.app).init();
      expect((await anonymous.post('/api/auth/reset-password', { token, password: 'a-juror-chose-this-42' })).status).toBe(204);
      expect((await anonymous.post('/api/auth/reset-password', { token, password: 'a-juror-chose-this-43' })).status).not.toBe(204);
      const signedIn = await new TestClient(t.app).init();
      await signedIn.signIn('farah@example.my', 'a-juror-chose-this-42');
      expect((await signedIn.get('/api/jury/assignments')).status).toBe(200);
      expect((await signedIn.post(`/api/applicants/${a.id}/reject`, { reason: 'Jurors may not decide' })).status).toBe(403);
      const invited = await sql<{ n: number }>`select count(*)::int as n from audit_log where action = 'accounts.invite'`.execute(t.app.db);
      expect(invited.rows[0]!.n).toBeGreaterThanOrEqual(1);
      expect((await admin.post(`/api/applicants/${a.id}/reject`, { reason: 'Changed our mind' })).status).toBe(409);
      const b = (await admin.post('/api/applicants', { name: 'Bima Santoso', email: 'bima@example.id', country: 'ID' })).body.data;
      expect((await admin.post(`/api/applicants/${b.id}/reject`, {})).status).toBe(422);
      const rejected = await admin.post(`/api/applicants/${b.id}/reject`, { reason: 'Works for an entrant' });
      expect(rejected.body.data).toMatchObject({ status: 'rejected', rejection_reason: 'Works for an entrant' });
      expect((await admin.put(`/api/applicants/${b.id}`, { status: 'approved' })).status).toBe(422);
      const audit = await sql<{ action: string }>`select action from audit_log where entity = 'applicant' and action like 'applicant.%' order by id`.execute(
        t.app.db,
      );
      expect(audit.rows.map((r) => r.action)).toEqual(['applicant.approve', 'applicant.reject']);
    });

    it('approves nothing when the e-mail already has an account: no juror, no account, still applied', async () => {
      await sql`insert into users (email, name, password_hash, role) values ('taken@example.my', 'Someone', null, 'admin')`.execute(t.app.db);
      const a = (await admin.post('/api/applicants', { name: 'Taken Person', email: 'taken@example.my', country: 'MY' })).body.data;
      const res = await admin.post(`/api/applicants/${a.id}/approve`, { round: 1 });
      expect(res.status).toBe(409);
      expect(res.body.errors[0]).toMatchObject({ path: 'email', messageKey: 'validation.email.unique' });
      expect((await admin.get(`/api/applicants/${a.id}`)).body.data.status).toBe('applied');
      const jurors = await sql<{ n: number }>`select count(*)::int as n from juries where email = 'taken@example.my'`.execute(t.app.db);
      expect(jurors.rows[0]!.n).toBe(0);
    });
  });
});
