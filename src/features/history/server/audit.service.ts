import { type Kysely, sql } from 'kysely';
import type { SystemTables } from '../../../server/index.js';

/** Audit rows per CSV at most. */
const CSV_MAX_ROWS = 100_000;

/** Which audit rows: by person, record, action and time (`from` inclusive, `to` exclusive; ISO instants). */
export interface AuditFilter {
  userId?: number;
  entity?: string;
  entityId?: string;
  action?: string;
  from?: string;
  to?: string;
}

/** One audit row as the API shows it, with who wrote it. */
export interface AuditEntry {
  id: number;
  created_at: string;
  action: string;
  entity: string | null;
  entity_id: string | null;
  ip: string | null;
  changes: Record<string, unknown>;
  details: Record<string, unknown>;
  user: { id: number; name: string | null; email: string | null } | null;
}

/** A page's place in the whole: the `meta` of a paged answer. */
export const pageMeta = (page: number, perPage: number, total: number) => ({
  current_page: page,
  per_page: perPage,
  total,
  last_page: Math.max(1, Math.ceil(total / perPage)),
});

/** The audit rows matching a filter. */
function auditQuery(db: Kysely<SystemTables>, filter: AuditFilter) {
  let q = db.selectFrom('audit_log as a');
  if (filter.userId) q = q.where('a.user_id', '=', filter.userId);
  if (filter.entity) q = q.where('a.entity', '=', filter.entity);
  if (filter.entityId) q = q.where('a.entity_id', '=', filter.entityId);
  if (filter.action) q = q.where('a.action', '=', filter.action);
  // The instants go as text, which PostgreSQL reads as timestamptz.
  if (filter.from) q = q.where(sql<boolean>`a.created_at >= ${filter.from}`);
  if (filter.to) q = q.where(sql<boolean>`a.created_at < ${filter.to}`);
  return q;
}

/** The matching rows with who wrote them, newest first. */
function entriesQuery(db: Kysely<SystemTables>, filter: AuditFilter) {
  return auditQuery(db, filter)
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .select([
      'a.id',
      'a.created_at',
      'a.action',
      'a.entity',
      'a.entity_id',
      'a.ip',
      'a.changes',
      'a.details',
      'a.user_id',
      'u.name as user_name',
      'u.email as user_email',
    ])
    .orderBy('a.id', 'desc');
}

type EntryRow = Awaited<ReturnType<ReturnType<typeof entriesQuery>['execute']>>[number];

function toEntry(row: EntryRow): AuditEntry {
  const created = row.created_at as unknown as Date | string;
  return {
    id: Number(row.id),
    created_at: created instanceof Date ? created.toISOString() : created,
    action: row.action,
    entity: row.entity,
    entity_id: row.entity_id,
    ip: row.ip,
    changes: row.changes ?? {},
    details: row.details ?? {},
    user: row.user_id === null ? null : { id: Number(row.user_id), name: row.user_name ?? null, email: row.user_email ?? null },
  };
}

/** One page of the matching rows, newest first, with the page's `meta`. */
export async function auditPage(db: Kysely<SystemTables>, filter: AuditFilter, page: number, perPage: number) {
  const total = Number(
    (
      await auditQuery(db, filter)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const rows = await entriesQuery(db, filter)
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return { data: rows.map(toEntry), meta: pageMeta(page, perPage, total) };
}

/** A cell of the CSV: JSON for objects, a leading quote before what a spreadsheet would run as a formula. */
function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The matching rows (the newest 100,000) as CSV text, one line per row after the header. */
export async function auditCsv(db: Kysely<SystemTables>, filter: AuditFilter): Promise<string> {
  const rows = await entriesQuery(db, filter).limit(CSV_MAX_ROWS).execute();
  const header = ['id', 'time', 'user_id', 'user_email', 'user_name', 'action', 'entity', 'record_id', 'address', 'changes', 'details'];
  const lines = [header.join(',')];
  for (const raw of rows) {
    const e = toEntry(raw);
    lines.push(
      [e.id, e.created_at, e.user?.id, e.user?.email, e.user?.name, e.action, e.entity, e.entity_id, e.ip, e.changes, e.details].map(csvCell).join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
