import { sql } from 'kysely';
import type { BeforeWriteHook } from '../../shared/extension/server-hooks.js';
import { messageKeyFor } from '../../shared/field-errors.js';
import { likeLiteral } from '../../shared/sql-text.js';

/**
 * Makes e-mail addresses case-insensitive: every field of the schema with `format: "email"` is
 * trimmed and lower-cased before it is stored ('Ana@X.co ' → 'ana@x.co'), so the table's unique
 * constraint compares addresses as mail servers do. When the field is unique on its own
 * (`unique: ["email"]`), a record stored before the hook, with capitals, also counts as a clash:
 * the check matches case-insensitively (through the field's search index when it has one) and
 * answers 409 on the field exactly as the unique constraint would.
 */
export const lowercaseEmail: BeforeWriteHook = async ({ entity, data, previous, id, db, errors, bulk }) => {
  const d = entity.descriptor;
  for (const [field, property] of Object.entries(entity.schema.properties ?? {})) {
    if (property.format !== 'email' || typeof data[field] !== 'string') continue;
    const email = (data[field] as string).trim().toLowerCase();
    data[field] = email;
    if (!d.unique.includes(field) || email === '' || previous?.[field] === email) continue;
    // An import keyed on this field has already matched the file's keys to stored records
    // case-insensitively (a thousand per query) and refused repeats within the file.
    if (bulk && d.import?.key === field) continue;
    const clash = await sql<{ id: number }>`
      select id from ${sql.table(d.table)}
      where ${sql.ref(field)} ilike ${likeLiteral(email)} and id <> ${id ?? 0}
      limit 1`.execute(db);
    if (clash.rows.length > 0) {
      throw errors.conflict(`Another ${d.label} already has this ${field}.`, [
        { path: field, keyword: 'unique', messageKey: messageKeyFor(d.messages, field, 'unique'), params: {} },
      ]);
    }
  }
};
