import type { Kysely, Migration } from 'kysely';
import { versionFeatureTable } from '../../../../server/index.js';

/**
 * Editions: `user_editions` gets a data version (raised by every write to it, as an entity table's
 * is), so a person's current edition can be kept per version instead of read on every list.
 */
export const userEditionsVersion: Migration = {
  async up(db: Kysely<unknown>) {
    await versionFeatureTable(db as Kysely<any>, 'user_editions');
  },
};
