import { badRequest, type EntityRegistry, forbidden, notFound, validationFailed } from '../../../server/index.js';
import { canPerform } from '../../../shared/descriptor/client-entity.js';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';
import type { DataioDb } from './tables.js';

const MAX_NAME = 100;
const MAX_QUERY = 2000;
const VIEW_COLUMNS = ['id', 'entity', 'name', 'query', 'shared', 'user_id', 'created_at'] as const;

/**
 * A saved view's query: the list's own browser parameters only (page size, sort, direction,
 * search, the descriptor's filters), each once, so opening the view reproduces the list.
 */
function cleanQuery(entity: LoadedEntity, raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > MAX_QUERY) throw badRequest(`query must be a query string of at most ${MAX_QUERY} characters.`);
  const list = entity.descriptor.list;
  const allowed = new Set(['sort', 'direction', 'search', ...list.filters.map((f) => f.param), ...(list.pageSizeParam ? [list.pageSizeParam] : [])]);
  const params = new URLSearchParams(raw.replace(/^\?/, ''));
  const clean = new URLSearchParams();
  for (const [key, value] of params) {
    if (!allowed.has(key)) throw badRequest(`Unknown query parameter: ${key}.`);
    if (clean.has(key)) throw badRequest(`The query parameter ${key} is given more than once.`);
    if (value.length > 200) throw badRequest(`The query parameter ${key} must be at most 200 characters.`);
    clean.set(key, value);
  }
  return clean.toString();
}

/** Who asks: a signed-in account and its role. */
export interface ViewCaller {
  userId: number;
  role: string | undefined;
}

/**
 * Saved list views, stored on the server: an admin's own and the shared ones, by entity. A view is
 * opened by its link (the list's path with its query); only its owner deletes it.
 */
export class ViewService {
  constructor(
    private readonly db: DataioDb,
    private readonly registry: EntityRegistry,
  ) {}

  /** The entity `name` when the caller may list it (400 when it names none, 403 without the permission). */
  private listable(name: unknown, caller: ViewCaller): LoadedEntity {
    const entity = typeof name === 'string' ? this.registry.byName.get(name) : undefined;
    if (!entity) throw badRequest('entity must name an entity.');
    if (!canPerform(entity, 'list', caller.role)) throw forbidden();
    return entity;
  }

  /** The caller's views of the entity and the shared ones, by name. */
  async list(entityName: unknown, caller: ViewCaller) {
    const entity = this.listable(entityName, caller);
    const rows = await this.db
      .selectFrom('saved_views')
      .select([...VIEW_COLUMNS])
      .where('entity', '=', entity.descriptor.name)
      .where((eb) => eb.or([eb('user_id', '=', caller.userId), eb('shared', '=', true)]))
      .orderBy('name')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ ...row, mine: row.user_id === caller.userId }));
  }

  /** Saves a view (422 on its name, 400 on a query the list does not take). */
  async create(body: { entity?: unknown; name?: unknown; query?: unknown; shared?: unknown }, caller: ViewCaller) {
    const entity = this.listable(body.entity, caller);
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (name.length === 0 || name.length > MAX_NAME) {
      throw validationFailed([
        {
          path: 'name',
          keyword: name ? 'maxLength' : 'required',
          messageKey: name ? 'dataio.views.errors.name_max' : 'dataio.views.errors.name_required',
          params: { limit: MAX_NAME },
        },
      ]);
    }
    if (body.shared !== undefined && typeof body.shared !== 'boolean') throw badRequest('shared must be true or false.');
    const row = await this.db
      .insertInto('saved_views')
      .values({ entity: entity.descriptor.name, name, query: cleanQuery(entity, body.query ?? ''), shared: body.shared === true, user_id: caller.userId })
      .returning([...VIEW_COLUMNS])
      .executeTakeFirstOrThrow();
    return { ...row, mine: true };
  }

  /** Deletes one of the caller's views (400 for a malformed id, 404 when it is not theirs). */
  async remove(rawId: string, caller: ViewCaller): Promise<void> {
    if (!/^[1-9]\d{0,9}$/.test(rawId)) throw badRequest('Invalid view ID');
    const deleted = await this.db.deleteFrom('saved_views').where('id', '=', Number(rawId)).where('user_id', '=', caller.userId).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw notFound('View not found.');
  }
}
