import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { canPerform } from '../../../shared/descriptor/client-entity.js';
import { badRequest, forbidden } from '../../../server/index.js';
import { parseRecordId } from '../../../server/index.js';
import { emptyTrash, listTrash, restoreFromTrash } from '../../../server/index.js';

const MAX_PER_PAGE = 100;
const CSV_MAX_ROWS = 100_000;

type Query = Record<string, unknown>;

function positive(query: Query, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = query[name];
  if (raw === undefined || raw === '') return fallback;
  const text = String(raw);
  if (text.length > 12 || !/^[1-9][0-9]*$/.test(text)) throw badRequest(`Invalid ${name}: a positive whole number is expected.`);
  return Math.min(Number(text), max);
}

function instant(query: Query, name: string): string | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  const text = String(raw);
  const time = text.length <= 40 ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(time)) throw badRequest(`Invalid ${name}: a date or date-time is expected.`);
  return new Date(time).toISOString();
}

function text(query: Query, name: string, max = 100): string | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  const value = String(raw);
  if (value.length > max) throw badRequest(`Invalid ${name}: at most ${max} characters.`);
  return value;
}

function onlyKnown(query: Query, known: readonly string[]) {
  const unknown = Object.keys(query).find((name) => !known.includes(name));
  if (unknown) throw badRequest(`Unknown query parameter: ${unknown}.`);
}

const actorOf = (request: FastifyRequest) => ({ userId: request.user?.id ?? null, ip: request.ip ?? null });

const pageMeta = (page: number, perPage: number, total: number) => ({
  current_page: page,
  per_page: perPage,
  total,
  last_page: Math.max(1, Math.ceil(total / perPage)),
});

/** The audit rows matching a filter, newest first, with who wrote them. */
function auditQuery(db: Kysely<any>, filter: { userId?: number; entity?: string; entityId?: string; action?: string; from?: string; to?: string }) {
  let q = db.selectFrom('audit_log as a');
  if (filter.userId) q = q.where('a.user_id', '=', filter.userId);
  if (filter.entity) q = q.where('a.entity', '=', filter.entity);
  if (filter.entityId) q = q.where('a.entity_id', '=', filter.entityId);
  if (filter.action) q = q.where('a.action', '=', filter.action);
  if (filter.from) q = q.where('a.created_at', '>=', filter.from);
  if (filter.to) q = q.where('a.created_at', '<', filter.to);
  return q;
}

const ROW_COLUMNS = ['a.id', 'a.created_at', 'a.action', 'a.entity', 'a.entity_id', 'a.ip', 'a.changes', 'a.details', 'a.user_id', 'u.name as user_name', 'u.email as user_email'] as const;

async function auditPage(db: Kysely<any>, filter: Parameters<typeof auditQuery>[1], page: number, perPage: number) {
  const base = auditQuery(db, filter);
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await base
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .select([...ROW_COLUMNS])
    .orderBy('a.id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return { data: rows.map(toEntry), meta: pageMeta(page, perPage, total) };
}

function toEntry(row: Record<string, any>) {
  return {
    id: Number(row.id),
    created_at: row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at,
    action: row.action,
    entity: row.entity,
    entity_id: row.entity_id,
    ip: row.ip,
    changes: row.changes ?? {},
    details: row.details ?? {},
    user: row.user_id === null ? null : { id: Number(row.user_id), name: row.user_name ?? null, email: row.user_email ?? null },
  };
}

function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * History: a record's history, the audit log (admins; filtered, paged, CSV), the trash
 * and restore. Registered under `/api`.
 */
export async function historyRoutes(app: FastifyInstance) {
  const adminOnly = async (request: FastifyRequest) => {
    if (request.user?.role !== 'admin') throw forbidden();
  };
  const ctx = (request: FastifyRequest) => ({ db: app.db, registry: app.entities, actor: actorOf(request) });

  for (const entity of app.entities.entities) {
    const d = entity.descriptor;
    if (d.permissions.read.length > 0) {
      app.get(`/${d.endpoint}/:id/history`, {
        preHandler: async (request) => {
          if (!canPerform(entity, 'read', request.user?.role)) throw forbidden();
        },
      }, async (request) => {
        const id = parseRecordId(entity, (request.params as { id?: string }).id);
        const query = request.query as Query;
        onlyKnown(query, ['page', 'per_page']);
        return auditPage(app.db, { entity: d.name, entityId: String(id) }, positive(query, 'page', 1), positive(query, 'per_page', 20, MAX_PER_PAGE));
      });
    }
    if (d.permissions.delete.length > 0) {
      app.post(`/${d.endpoint}/:id/restore`, {
        preHandler: async (request) => {
          if (!canPerform(entity, 'delete', request.user?.role)) throw forbidden();
        },
      }, async (request) => {
        const id = parseRecordId(entity, (request.params as { id?: string }).id);
        return { data: await restoreFromTrash(entity, id, ctx(request)) };
      });
    }
  }

  app.get('/audit', { preHandler: adminOnly }, async (request, reply) => {
    const query = request.query as Query;
    onlyKnown(query, ['page', 'per_page', 'user_id', 'entity', 'entity_id', 'action', 'from', 'to', 'format']);
    const format = text(query, 'format', 10);
    if (format && format !== 'csv' && format !== 'json') throw badRequest('Invalid format: csv or json.');
    const filter = {
      userId: query.user_id === undefined || query.user_id === '' ? undefined : positive(query, 'user_id', 0),
      entity: text(query, 'entity'),
      entityId: text(query, 'entity_id', 20),
      action: text(query, 'action'),
      from: instant(query, 'from'),
      to: instant(query, 'to'),
    };
    if (format !== 'csv') return auditPage(app.db, filter, positive(query, 'page', 1), positive(query, 'per_page', 25, MAX_PER_PAGE));
    const rows = await auditQuery(app.db, filter)
      .leftJoin('users as u', 'u.id', 'a.user_id')
      .select([...ROW_COLUMNS])
      .orderBy('a.id', 'desc')
      .limit(CSV_MAX_ROWS)
      .execute();
    const header = ['id', 'time', 'user_id', 'user_email', 'user_name', 'action', 'entity', 'record_id', 'address', 'changes', 'details'];
    const lines = [header.join(',')];
    for (const raw of rows) {
      const e = toEntry(raw);
      lines.push([e.id, e.created_at, e.user?.id, e.user?.email, e.user?.name, e.action, e.entity, e.entity_id, e.ip, e.changes, e.details].map(csvCell).join(','));
    }
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.csv"`);
    return `${lines.join('\r\n')}\r\n`;
  });

  app.get('/trash', { preHandler: adminOnly }, async (request) => {
    const query = request.query as Query;
    onlyKnown(query, ['page', 'per_page', 'entity']);
    const page = positive(query, 'page', 1);
    const perPage = positive(query, 'per_page', 25, MAX_PER_PAGE);
    const entityName = text(query, 'entity');
    const { rows, total } = await listTrash(app.db, { page, perPage, entity: entityName });
    return {
      data: rows.map((r: Record<string, any>) => {
        const entity = app.entities.byName.get(r.entity);
        return {
          id: Number(r.id),
          entity: r.entity,
          endpoint: entity?.descriptor.endpoint ?? null,
          record_id: Number(r.record_id),
          title: r.title,
          deleted_at: r.deleted_at instanceof Date ? r.deleted_at.toISOString() : r.deleted_at,
          expires_at: r.expires_at instanceof Date ? r.expires_at.toISOString() : r.expires_at,
          deleted_by: r.deleted_by === null ? null : { id: Number(r.deleted_by), name: r.deleted_by_name ?? null },
        };
      }),
      meta: pageMeta(page, perPage, total),
    };
  });

  app.delete('/trash', { preHandler: adminOnly }, async (request) => ({ data: { deleted: await emptyTrash(app.db, actorOf(request)) } }));
  app.delete('/trash/:id', { preHandler: adminOnly }, async (request) => {
    const raw = String((request.params as { id?: string }).id ?? '');
    if (raw.length > 15 || !/^[1-9][0-9]*$/.test(raw)) throw badRequest('Invalid trash item ID');
    return { data: { deleted: await emptyTrash(app.db, actorOf(request), [Number(raw)]) } };
  });
}
