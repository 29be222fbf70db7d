import type { Kysely } from 'kysely';
import { type DataVersionSnapshot, type ListScope, type RemoveGuard, readDataVersion } from '../../../server/index.js';
import type { BeforeWriteHook } from '../../../shared/extension/server-hooks.js';
import { assertEditionWritable, currentEditionId, defaultEditionId } from './current-edition.js';

/** The field that puts a record in an edition: any entity whose schema has it is scoped and locked. */
export const EDITION_FIELD = 'edition_id';

const hasEditionField = (entity: { schema: { properties?: Record<string, unknown> } }) => Object.hasOwn(entity.schema.properties ?? {}, EDITION_FIELD);

/** People's current editions, per database, each with the data version it was read at. */
const keptEditions = new WeakMap<Kysely<any>, Map<number, { version: string; editionId: number | null }>>();
const MAX_KEPT = 10_000;

/**
 * {@link currentEditionId}, kept per person while `editions` and `user_editions` keep their data
 * version (read with the request's others, so a list asks nothing more): a choice made on another
 * server, or an edition archived, raises it and the next list reads the edition again.
 */
async function keptCurrentEditionId(db: Kysely<any>, userId: number, versions: DataVersionSnapshot): Promise<number | null> {
  const version = await readDataVersion(db, ['editions', 'user_editions'], versions);
  let kept = keptEditions.get(db);
  if (!kept) {
    kept = new Map();
    keptEditions.set(db, kept);
  }
  const known = kept.get(userId);
  if (known?.version === version) return known.editionId;
  const editionId = await currentEditionId(db, userId);
  kept.delete(userId);
  kept.set(userId, { version, editionId });
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
  return editionId;
}

/**
 * The lists, exports and bulk selections of every entity with an `edition_id` show the caller's
 * current edition only (nothing narrowed when there is no edition yet, or for a system read).
 */
export const currentEditionScope: ListScope = async ({ entity, db, userId, versions }) => {
  if (!hasEditionField(entity) || userId === null) return undefined;
  const editionId = versions ? await keptCurrentEditionId(db, userId, versions) : await currentEditionId(db, userId);
  return editionId === null ? undefined : { [EDITION_FIELD]: editionId };
};

/**
 * `current-edition` (named in a descriptor's `hooks.beforeWrite`): a new record without an edition
 * gets the writer's current edition (a system write or an import: the newest not archived), and no
 * write touches an archived edition: neither a record stored in one nor a move into one (409
 * `edition_archived`).
 */
export const currentEditionHook: BeforeWriteHook = async ({ operation, data, previous, db, userId }) => {
  if (operation === 'create' && (data[EDITION_FIELD] === undefined || data[EDITION_FIELD] === null)) {
    const editionId = userId ? await currentEditionId(db, userId) : await defaultEditionId(db);
    if (editionId !== null) data[EDITION_FIELD] = editionId;
  }
  if (previous) await assertEditionWritable(db, previous[EDITION_FIELD] as number | null | undefined);
  if (data[EDITION_FIELD] !== undefined && data[EDITION_FIELD] !== previous?.[EDITION_FIELD]) {
    await assertEditionWritable(db, data[EDITION_FIELD] as number | null);
  }
};

/** Nothing of an archived edition is deleted (409 `edition_archived`). */
export const archivedEditionRemoveGuard: RemoveGuard = async ({ entity, record, db }) => {
  if (hasEditionField(entity)) await assertEditionWritable(db, record[EDITION_FIELD] as number | null | undefined);
};
