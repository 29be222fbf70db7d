import { type Kysely, sql } from 'kysely';
import { AppError, conflict, type EntityRegistry, notFound, validationFailed, writeAudit } from '../../../server/index.js';
import type { PortalFormConfig } from '../../../shared/descriptor/types.js';
import { attachEntryMedia } from '../../media/server.js';
import { DRAFT_STATUS, ENTRY_ENTITY, type EntryOptions, type MyEntry, SUBMITTED_STATUS, SUBMITTOR_ENTITY } from '../index.js';

type Db = Kysely<any>;

/** Who writes: the signed-in entrant's account, the submittor it stands for, and the request's address. */
export interface Entrant {
  userId: number;
  customerId: number;
  ip: string | null;
}

/** Edition statuses whose results entrants see (the programme published them by closing the edition). */
const PUBLISHED_EDITION_STATUSES = ['closed', 'archived'];

const iso = (value: unknown): string | null => (value === null || value === undefined ? null : new Date(value as string).toISOString());

/** The 409 of a write after the edition stopped taking entries. */
const closed = () =>
  conflict('This edition is not taking entries.', [{ path: 'edition_id', keyword: 'closed', messageKey: 'entrants.errors.closed', params: {} }]);

/**
 * The entrant's side of the entries (DESIGN §19): their own entries only (another's is a 404), a
 * new one in an edition taking entries (open, within its entry window) and an active category
 * within the submittor's `max_entries` for that edition, its portal-form fields while a draft, and
 * the submit (required fields filled, the window still open). Status, submittor and edition are
 * the server's. Every write is audited in its transaction.
 */
export class MyEntries {
  constructor(
    private readonly db: Db,
    private readonly registry: EntityRegistry,
  ) {}

  private table(entity: string): string {
    const table = this.registry.byName.get(entity)?.descriptor.table;
    if (!table) throw notFound('This entity is not loaded.');
    return table;
  }

  /** The entries' portal form (its fields are the only ones an entrant writes). */
  get form(): PortalFormConfig {
    const portal = this.registry.byName.get(ENTRY_ENTITY)?.descriptor.forms.portal;
    if (!portal) throw notFound('The entry descriptor has no portal form.');
    return portal;
  }

  /** The submittor an entrant account stands for; 403 when it stands for none. */
  static async customerOf(db: Db, userId: number): Promise<number> {
    const row = await sql<{ customer_id: number | null }>`select customer_id from users where id = ${userId}`.execute(db);
    const id = row.rows[0]?.customer_id;
    if (!id) throw new AppError(403, 'FORBIDDEN', 'This account stands for no submittor.');
    return id;
  }

  /** Whether an edition takes entries now: open, and within its entry window. */
  private isOpen(edition: { status: unknown; entries_open_at: unknown; entries_close_at: unknown } | undefined, now = Date.now()): boolean {
    if (edition?.status !== 'open') return false;
    if (edition.entries_open_at && new Date(edition.entries_open_at as string).getTime() > now) return false;
    if (edition.entries_close_at && new Date(edition.entries_close_at as string).getTime() <= now) return false;
    return true;
  }

  private async edition(db: Db, id: number | null) {
    if (id === null) return undefined;
    const rows = await sql<{ id: number; name: string; status: string; entries_open_at: unknown; entries_close_at: unknown }>`
      select id, name, status, entries_open_at, entries_close_at from ${sql.table(this.table('edition'))} where id = ${id}`.execute(db);
    return rows.rows[0];
  }

  private async toEntry(db: Db, row: Record<string, unknown>): Promise<MyEntry> {
    const edition = await this.edition(db, (row.edition_id as number | null) ?? null);
    const category = await sql<{ name: string }>`select name from ${sql.table(this.table('category'))} where id = ${row.category_id}`.execute(db);
    const published = edition !== undefined && PUBLISHED_EDITION_STATUSES.includes(edition.status);
    return {
      id: Number(row.id),
      status: String(row.status),
      edition_id: (row.edition_id as number | null) ?? null,
      edition_name: edition?.name ?? null,
      category_id: Number(row.category_id),
      category_name: category.rows[0]?.name ?? null,
      editable: row.status === DRAFT_STATUS && this.isOpen(edition),
      closes_at: iso(edition?.entries_close_at),
      created_at: iso(row.created_at)!,
      updated_at: iso(row.updated_at)!,
      values: Object.fromEntries(this.form.fields.map((field) => [field, row[field] ?? null])),
      awards: published ? await this.awardsOf(db, Number(row.id)) : [],
      remarks: published ? await this.remarksOf(db, Number(row.id)) : [],
    };
  }

  /**
   * The juror remarks the programme publishes on an entry: the non-empty remarks of its submitted
   * grades in finalised exams (those with locked results, as for the awards) whose `publish_remarks`
   * is set. Only the text and the exam's name and round: never who wrote it (sorted by exam and
   * text, so not even the order tells the jurors apart).
   */
  private async remarksOf(db: Db, contestId: number): Promise<MyEntry['remarks']> {
    const exists = await sql<{ found: string | null }>`select to_regclass('exam_locks')::text as found`.execute(db);
    if (!exists.rows[0]?.found) return [];
    const rows = await sql<{ exam: string; round: number; remark: string }>`
      select e.name as exam, e.round as round, btrim(g.remarks) as remark
      from ${sql.table(this.table('grade'))} g
      join ${sql.table(this.table('exam'))} e on e.id = g.exam_id
      join exam_locks l on l.exam_id = e.id
      where g.contest_id = ${contestId} and g.status = 'submitted' and e.publish_remarks = true
        and g.remarks is not null and btrim(g.remarks) <> ''
      order by e.round, e.name, e.id, btrim(g.remarks)`.execute(db);
    return rows.rows.map((row) => ({ exam: row.exam, round: Number(row.round), remark: row.remark }));
  }

  /** The awards an entry won in finalised exams (their locked results). */
  private async awardsOf(db: Db, contestId: number): Promise<MyEntry['awards']> {
    const exists = await sql<{ found: string | null }>`select to_regclass('exam_locks')::text as found`.execute(db);
    if (!exists.rows[0]?.found) return [];
    const rows = await sql<{ results: unknown }>`select results from exam_locks`.execute(db);
    const awards: MyEntry['awards'] = [];
    for (const { results } of rows.rows) {
      const data = (typeof results === 'string' ? JSON.parse(results) : results) as {
        exam?: { category?: string | null };
        entries?: Array<{ contestId?: number; award?: { name?: string } | null }>;
      };
      for (const entry of data?.entries ?? []) {
        if (entry.contestId === contestId && entry.award?.name) awards.push({ award: entry.award.name, category: data.exam?.category ?? null });
      }
    }
    return awards;
  }

  private async own(db: Db, entrant: Entrant, id: number, lock = false): Promise<Record<string, unknown>> {
    const rows = await sql<Record<string, unknown>>`
      select * from ${sql.table(this.table(ENTRY_ENTITY))} where id = ${id} and customer_id = ${entrant.customerId}
      ${lock ? sql`for update` : sql``}`.execute(db);
    // Another entrant's entry is answered as one that does not exist.
    if (!rows.rows[0]) throw notFound('No entry has this ID.');
    return rows.rows[0];
  }

  /** The entrant's entries, newest first. */
  async list(entrant: Entrant): Promise<MyEntry[]> {
    const rows = await sql<Record<string, unknown>>`
      select * from ${sql.table(this.table(ENTRY_ENTITY))} where customer_id = ${entrant.customerId} order by created_at desc, id desc limit 500`.execute(
      this.db,
    );
    const entries: MyEntry[] = [];
    for (const row of rows.rows) entries.push(await this.toEntry(this.db, row));
    return entries;
  }

  async read(entrant: Entrant, id: number): Promise<MyEntry> {
    return this.toEntry(this.db, await this.own(this.db, entrant, id));
  }

  /** The editions taking entries now and the active categories, with the submittor's limit and count. */
  async options(entrant: Entrant): Promise<EntryOptions> {
    const editions = await sql<{ id: number; name: string; status: string; entries_open_at: unknown; entries_close_at: unknown }>`
      select id, name, status, entries_open_at, entries_close_at from ${sql.table(this.table('edition'))} where status = 'open' order by year desc, id desc`.execute(
      this.db,
    );
    const categories = await sql<{ id: number; name: string; description: string | null }>`
      select id, name, description from ${sql.table(this.table('category'))} where status = 'active' order by name, id`.execute(this.db);
    const open = editions.rows.filter((edition) => this.isOpen(edition));
    const { max, used } = await this.quota(this.db, entrant, open[0]?.id ?? null);
    return {
      editions: open.map((edition) => ({ id: Number(edition.id), name: edition.name, closes_at: iso(edition.entries_close_at) })),
      categories: categories.rows.map((category) => ({ id: Number(category.id), name: category.name, description: category.description ?? null })),
      max_entries: max,
      used,
    };
  }

  /** The submittor's limit and how many entries they have in the edition. */
  private async quota(db: Db, entrant: Entrant, editionId: number | null): Promise<{ max: number; used: number }> {
    const customer = await sql<{ max_entries: number | null }>`
      select max_entries from ${sql.table(this.table(SUBMITTOR_ENTITY))} where id = ${entrant.customerId}`.execute(db);
    const count = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.table(this.table(ENTRY_ENTITY))}
      where customer_id = ${entrant.customerId} and edition_id is not distinct from ${editionId}`.execute(db);
    return { max: Number(customer.rows[0]?.max_entries ?? 0), used: Number(count.rows[0]?.n ?? 0) };
  }

  private values(body: Record<string, unknown>): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const field of this.form.fields) {
      if (body[field] === undefined) continue;
      const value = body[field];
      values[field] = typeof value === 'string' && value.trim() === '' ? null : typeof value === 'string' ? value.trim() : value;
    }
    return values;
  }

  /** A new draft in an edition taking entries and an active category; 409 when closed or the submittor's limit is reached. */
  async create(entrant: Entrant, body: Record<string, unknown>): Promise<MyEntry> {
    const editionId = Number(body.edition_id);
    const categoryId = Number(body.category_id);
    return this.db.transaction().execute(async (trx) => {
      // One submittor's writes one at a time, so two tabs cannot both take the last place.
      await sql`select id from ${sql.table(this.table(SUBMITTOR_ENTITY))} where id = ${entrant.customerId} for update`.execute(trx);
      const edition = await this.edition(trx, editionId);
      if (!edition) throw validationFailed([{ path: 'edition_id', keyword: 'exists', messageKey: 'entrants.errors.editionUnknown', params: {} }]);
      if (!this.isOpen(edition)) throw closed();
      const category = await sql<{ status: string }>`select status from ${sql.table(this.table('category'))} where id = ${categoryId}`.execute(trx);
      if (category.rows[0]?.status !== 'active') {
        throw validationFailed([{ path: 'category_id', keyword: 'exists', messageKey: 'entrants.errors.categoryUnknown', params: {} }]);
      }
      const { max, used } = await this.quota(trx, entrant, editionId);
      if (used >= max) {
        throw conflict(`This submittor has ${used} of ${max} entries.`, [
          { path: '', keyword: 'max_entries', messageKey: 'entrants.errors.full', params: { max } },
        ]);
      }
      const values = { ...this.values(body), customer_id: entrant.customerId, edition_id: editionId, category_id: categoryId, status: DRAFT_STATUS };
      const row = await trx.insertInto(this.table(ENTRY_ENTITY)).values(values).returningAll().executeTakeFirstOrThrow();
      // The files its fields name (uploaded by this entrant) now belong to the entry.
      await attachEntryMedia(trx, { contestId: Number(row.id), values: Object.values(values), userId: entrant.userId });
      await writeAudit(trx, {
        action: 'entrants.create',
        userId: entrant.userId,
        ip: entrant.ip,
        entity: ENTRY_ENTITY,
        entityId: Number(row.id),
        before: null,
        after: row as Record<string, unknown>,
      });
      return this.toEntry(trx, row as Record<string, unknown>);
    });
  }

  /** Changes a draft's portal-form fields while its edition takes entries (409 after, or once submitted). */
  async update(entrant: Entrant, id: number, body: Record<string, unknown>): Promise<MyEntry> {
    return this.db.transaction().execute(async (trx) => {
      const before = await this.writable(trx, entrant, id);
      const values = this.values(body);
      const row = await trx
        .updateTable(this.table(ENTRY_ENTITY))
        .set({ ...values, updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await attachEntryMedia(trx, { contestId: id, values: Object.values(values), userId: entrant.userId });
      await writeAudit(trx, { action: 'entrants.update', userId: entrant.userId, ip: entrant.ip, entity: ENTRY_ENTITY, entityId: id, before, after: row });
      return this.toEntry(trx, row as Record<string, unknown>);
    });
  }

  /** Hands a draft in: the portal form's required fields filled (422 naming each), the window still open (409). */
  async submit(entrant: Entrant, id: number): Promise<MyEntry> {
    return this.db.transaction().execute(async (trx) => {
      const before = await this.writable(trx, entrant, id);
      const missing = this.form.required.filter((field) => before[field] === null || before[field] === undefined || String(before[field]).trim() === '');
      if (missing.length > 0) {
        throw validationFailed(
          missing.map((field) => ({ path: field, keyword: 'required', messageKey: 'entrants.errors.requiredToSubmit', params: {} })),
          'Fill these fields before submitting.',
        );
      }
      const row = await trx
        .updateTable(this.table(ENTRY_ENTITY))
        .set({ status: SUBMITTED_STATUS, updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await writeAudit(trx, { action: 'entrants.submit', userId: entrant.userId, ip: entrant.ip, entity: ENTRY_ENTITY, entityId: id, before, after: row });
      return this.toEntry(trx, row as Record<string, unknown>);
    });
  }

  /** The entrant's own draft, locked, in an edition still taking entries. */
  private async writable(trx: Db, entrant: Entrant, id: number): Promise<Record<string, unknown>> {
    const row = await this.own(trx, entrant, id, true);
    if (row.status !== DRAFT_STATUS) {
      throw conflict('This entry was submitted: it can no longer be changed.', [
        { path: '', keyword: 'not_draft', messageKey: 'entrants.errors.notDraft', params: {} },
      ]);
    }
    if (!this.isOpen(await this.edition(trx, (row.edition_id as number | null) ?? null))) throw closed();
    return row;
  }
}
