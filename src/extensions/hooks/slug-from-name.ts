import { sql } from 'kysely';
import type { BeforeWriteHook } from '../../shared/extension/server-hooks.js';
import { slugify } from '../../shared/slugify.js';

/**
 * Sets `slug` from `name`, unique in the table: `best-use-of-social`, then `best-use-of-social-2`,
 * `-3`... Recomputed when an update changes the name; a record keeps its own slug otherwise.
 * Concurrent writes of one name wait for each other (a transaction-scoped advisory lock).
 */
export const slugFromName: BeforeWriteHook = async ({ entity, data, previous, id, db }) => {
  if (typeof data.name !== 'string') return;
  if (previous && previous.name === data.name && typeof previous.slug === 'string') return;
  const maxLength = entity.schema.properties?.slug?.maxLength ?? 120;
  const base = slugify(data.name, Math.max(1, maxLength - 8)) || entity.descriptor.name;
  const table = entity.descriptor.table;
  // Writes whose slugs could meet ('Gold' → gold, gold-2...; 'Gold 2' → gold-2...) take turns until
  // their transactions end, so each sees the others' slugs: without this, same-named records created
  // at once on PostgreSQL picked the same slug and failed on a field their users never sent.
  const family = base.replace(/(?:-\d+)+$/, '') || base;
  await sql`select pg_advisory_xact_lock(hashtext(${`slug:${table}:${family}`}))`.execute(db);
  const taken = await sql<{ slug: string }>`
    select slug from ${sql.table(table)}
    where (slug = ${base} or slug like ${`${base}-%`}) and id <> ${id ?? 0}`.execute(db);
  const used = new Set(taken.rows.map((row) => row.slug));
  let slug = base;
  for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
  data.slug = slug;
};
