import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PRODUCT_ID } from '../shared/product.js';
import type { AppConfig } from './config.js';

/** The file in `DATA_DIR` that holds the generated data key when neither `DATA_KEY` nor `JWT_SECRET` is set. */
export const DATA_KEY_FILE = 'data-key';

/** Where the data key came from, for the start-up messages. */
export type DataKeyOrigin = 'DATA_KEY' | 'JWT_SECRET' | 'file' | 'memory';

/**
 * The server's data key: the root of the key that encrypts the TOTP secrets and of the audit chain's
 * HMAC key. It is never stored in the database, so no backup carries it: an operator keeps it
 * (`DATA_KEY`, else `JWT_SECRET` when set in the environment, else the file `DATA_DIR/data-key`,
 * generated on the first start) and gives it to the server a backup is restored onto.
 */
export interface DataKey {
  source: Buffer;
  origin: DataKeyOrigin;
  /** A short, non-secret fingerprint of the key for messages (`dk-1a2b3c4d`). */
  id: string;
}

const IN_MEMORY = ':memory:';

/**
 * Reads (or, with `create`, generates on the first start) the data key. Null only when `create` is
 * false and no key exists yet (a maintenance command on a data folder no server has started on).
 */
export function loadDataKey(config: Pick<AppConfig, 'dataKey' | 'jwtSecret' | 'dataDir'>, options: { create: boolean }): DataKey | null {
  if (config.dataKey) return withId(Buffer.from(config.dataKey, 'utf8'), 'DATA_KEY');
  if (config.jwtSecret) return withId(Buffer.from(config.jwtSecret, 'utf8'), 'JWT_SECRET');
  if (config.dataDir === IN_MEMORY) return options.create ? withId(randomBytes(48), 'memory') : null;
  const file = path.join(config.dataDir, DATA_KEY_FILE);
  if (!fs.existsSync(file)) {
    if (!options.create) return null;
    fs.mkdirSync(config.dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process made it at the same moment: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const text = fs.readFileSync(file, 'utf8').trim();
  if (text.length < 32)
    throw new Error(`${file} holds no usable data key (fewer than 32 characters); restore the copy you kept, or remove the file to make a new key.`);
  return withId(Buffer.from(text, 'utf8'), 'file');
}

function withId(source: Buffer, origin: DataKeyOrigin): DataKey {
  return { source, origin, id: `dk-${createHmac('sha256', source).update(`${PRODUCT_ID} key id`).digest('hex').slice(0, 8)}` };
}

/** A 32-byte key for one purpose, derived from the data key (HKDF with the purpose's own label). */
export function deriveKey(source: Uint8Array, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', source, Buffer.alloc(0), `${PRODUCT_ID} ${label}`, 32));
}

/** Where the operator finds the key, for messages. */
export function describeDataKey(key: DataKey, dataDir: string): string {
  switch (key.origin) {
    case 'DATA_KEY':
      return `DATA_KEY (${key.id})`;
    case 'JWT_SECRET':
      return `the key derived from JWT_SECRET (${key.id}; set DATA_KEY to separate them)`;
    case 'file':
      return `${path.join(dataDir, DATA_KEY_FILE)} (${key.id})`;
    default:
      return `a key held in memory only (${key.id}; DATA_DIR=:memory:, set DATA_KEY to keep it)`;
  }
}
