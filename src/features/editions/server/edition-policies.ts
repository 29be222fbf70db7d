import type { ListScope, RemoveGuard } from '../../../server/index.js';
import type { BeforeWriteHook } from '../../../shared/extension/server-hooks.js';
import { assertEditionWritable, currentEditionId, defaultEditionId } from './current-edition.js';

/** The field that puts a record in an edition: any entity whose schema has it is scoped and locked. */
export const EDITION_FIELD = 'edition_id';

const hasEditionField = (entity: { schema: { properties?: Record<string, unknown> } }) => Object.hasOwn(entity.schema.properties ?? {}, EDITION_FIELD);

/**
 * The lists, exports and bulk selections of every entity with an `edition_id` show the caller's
 * current edition only (nothing narrowed when there is no edition yet, or for a system read).
 */
export const currentEditionScope: ListScope = async ({ entity, db, userId }) => {
  if (!hasEditionField(entity) || userId === null) return undefined;
  const editionId = await currentEditionId(db, userId);
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
