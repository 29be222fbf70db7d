import type { BeforeWriteHook } from '../../shared/extension/server-hooks.js';

/**
 * Stores `password` only as a hash: replaces it with `password_hash` (scrypt with a per-record
 * salt, the same KDF as the admins' passwords) so the clear text never reaches the table, a
 * response or a log. The entity's schema must declare `password_hash` read-only and write-only
 * (never returned) and `password` virtual or write-only. A write without a password keeps the
 * stored hash. In an import (`bulk`) the hash uses the import cost.
 */
export const hashPassword: BeforeWriteHook = async ({ entity, data, bulk, hashPassword: hash }) => {
  if (!entity.schema.properties?.password_hash) {
    throw new Error(`The hash-password hook needs a "password_hash" field in the schema of ${entity.descriptor.name}.`);
  }
  const password = data.password;
  delete data.password;
  if (typeof password === 'string' && password.length > 0) data.password_hash = await hash(password, { bulk: bulk === true });
};
