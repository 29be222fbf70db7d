import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from './config.js';
import type { Database } from './db/kysely.js';

/**
 * The key that signs access tokens and refresh tokens. `JWT_SECRET` when set; otherwise one is
 * generated once and kept: in `DATA_DIR/jwt-secret` for the embedded database, in the database's
 * settings table for PostgreSQL so that every server in front of it shares it.
 */
export async function loadJwtSecret(config: AppConfig, database: Database, inMemory: boolean): Promise<Uint8Array> {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  if (inMemory) return randomBytes(48);

  if (database.kind === 'pglite') {
    const file = path.join(config.dataDir, 'jwt-secret');
    if (!fs.existsSync(file)) {
      fs.mkdirSync(config.dataDir, { recursive: true });
      fs.writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    }
    return new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim());
  }

  await database.db
    .insertInto('settings')
    .values({ key: 'jwt_secret', value: randomBytes(48).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await database.db.selectFrom('settings').select('value').where('key', '=', 'jwt_secret').executeTakeFirstOrThrow();
  return new TextEncoder().encode(row.value);
}
