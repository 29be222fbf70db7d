import { sql } from 'kysely';
import type { EntityRegistry, ListScopeConditions } from '../../../server/index.js';
import type { DashboardData, LatestContest, RoundFigures } from '../shared/dashboard-contract.js';
import { judgingStatus } from '../shared/judging-status.js';
import { shortlistStates } from './shortlist-states.js';
import type { JudgingDb } from './tables.js';

/** How many rows 'Latest Contests' shows. */
export const LATEST_CONTESTS = 10;

const tableOf = (registry: EntityRegistry, name: string) => registry.byName.get(name)?.descriptor.table;

/** Only submitted grades count once grades have drafts (the judging module's `status`). */
const submittedOnly = (registry: EntityRegistry) => (registry.byName.get('grade')?.schema.properties?.status ? sql`and g.status = 'submitted'` : sql``);

/** The caller's list scopes of the entities the dashboard counts (their current edition), by entity name. */
export type DashboardScope = Readonly<Record<string, ListScopeConditions | undefined>>;

/** `and <alias>.<field> = <value>` for each condition of an entity's scope (nothing without one). */
const scoped = (scope: DashboardScope, name: string, alias: string) =>
  sql.join(
    Object.entries(scope[name] ?? {}).map(([field, value]) => sql`and ${sql.ref(`${alias}.${field}`)} = ${value}`),
    sql` `,
  );

async function countRows(db: JudgingDb, table: string | undefined, where = sql``): Promise<number> {
  if (!table) return 0;
  const row = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)} t where true ${where}`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}

async function roundFigures(db: JudgingDb, registry: EntityRegistry, scope: DashboardScope): Promise<[RoundFigures, RoundFigures]> {
  const juries = tableOf(registry, 'jury');
  const grades = tableOf(registry, 'grade');
  const exams = tableOf(registry, 'exam');
  const jurors = juries ? (await sql<{ round: number; n: string }>`select round, count(*) as n from ${sql.table(juries)} group by round`.execute(db)).rows : [];
  const graded =
    grades && exams
      ? (
          await sql<{ round: number; n: string }>`select e.round, count(*) as n from ${sql.table(grades)} g
            join ${sql.table(exams)} e on e.id = g.exam_id where true ${submittedOnly(registry)} ${scoped(scope, 'exam', 'e')} group by e.round`.execute(db)
        ).rows
      : [];
  const figure = (round: 1 | 2): RoundFigures => ({
    round,
    juries: Number(jurors.find((r) => Number(r.round) === round)?.n ?? 0),
    graded: Number(graded.find((r) => Number(r.round) === round)?.n ?? 0),
  });
  return [figure(1), figure(2)];
}

async function latestContests(db: JudgingDb, registry: EntityRegistry, scope: DashboardScope): Promise<LatestContest[]> {
  const contests = tableOf(registry, 'contest');
  if (!contests) return [];
  const customers = tableOf(registry, 'customer');
  const categories = tableOf(registry, 'category');
  const rows = (
    await sql<{ id: number; category_id: number; status: string; created_at: Date | string; company: string | null; category: string | null }>`
      select c.id, c.category_id, c.status, c.created_at,
        ${customers ? sql`(select cu.company from ${sql.table(customers)} cu where cu.id = c.customer_id)` : sql`null`} as company,
        ${categories ? sql`(select ca.name from ${sql.table(categories)} ca where ca.id = c.category_id)` : sql`null`} as category
      from ${sql.table(contests)} c where true ${scoped(scope, 'contest', 'c')} order by c.created_at desc, c.id desc limit ${LATEST_CONTESTS}`.execute(db)
  ).rows;
  const grades = tableOf(registry, 'grade');
  const exams = tableOf(registry, 'exam');
  const juries = tableOf(registry, 'jury');
  const ids = rows.map((row) => Number(row.id));
  const graders =
    grades && exams && juries && ids.length
      ? (
          await sql<{ contest_id: number; round: number; name: string }>`
            select g.contest_id, e.round, j.name from ${sql.table(grades)} g
            join ${sql.table(exams)} e on e.id = g.exam_id join ${sql.table(juries)} j on j.id = g.jury_id
            where g.contest_id in (${sql.join(ids)}) ${submittedOnly(registry)} order by j.name`.execute(db)
        ).rows
      : [];
  const shortlist = await shortlistStates(db, registry, rows);
  return rows.map((row) => {
    const mine = graders.filter((g) => Number(g.contest_id) === Number(row.id));
    const juryR1 = [...new Set(mine.filter((g) => Number(g.round) === 1).map((g) => g.name))];
    const juryR2 = [...new Set(mine.filter((g) => Number(g.round) === 2).map((g) => g.name))];
    return {
      id: Number(row.id),
      company: row.company ?? null,
      categories: row.category ? [row.category] : [],
      juryR1,
      juryR2,
      status: judgingStatus(row.status, juryR1.length, juryR2.length, shortlist.get(Number(row.id))),
      created_at: new Date(row.created_at).toISOString(),
    };
  });
}

/**
 * Computes every dashboard figure from the data: the stat cards (jurors, examinations,
 * companies), the Round 1 / Round 2 panels (jurors of the round, grades given with the round's
 * examinations) and the latest contests with their jurors and judging state. Exams, grades (by
 * their exam) and contests count within `scope`: the caller's list scopes (their current edition).
 */
export async function dashboardData(db: JudgingDb, registry: EntityRegistry, scope: DashboardScope = {}): Promise<DashboardData> {
  const [juries, exams, companies] = await Promise.all(
    ['jury', 'exam', 'company'].map((name) => countRows(db, tableOf(registry, name), scoped(scope, name, 't'))),
  );
  return {
    totals: { juries: juries!, exams: exams!, companies: companies! },
    rounds: await roundFigures(db, registry, scope),
    latestContests: await latestContests(db, registry, scope),
  };
}
