import { type Kysely, sql } from 'kysely';
import type { TwoFactorEnrolment } from '../../shared/api-contract.js';
import type { SystemTables } from '../db/system-tables.js';
import { decryptSecret, encryptSecret, enrolmentOf, hashRecoveryCode, isRecoveryCodeShape, matchTotpStep, newRecoveryCodes, newTotpSecret } from './totp.js';
import type { UserRow } from './users.js';

type Db = Kysely<SystemTables>;

/**
 * A TOTP secret that none of the server's keys opens: it was encrypted by a server with another
 * data key (a backup restored without the key it was made with). Sign-in answers it with a coded
 * error, not a 500; an admin resets the account's two-factor, or the operator restores the key.
 */
export class TwoFactorKeyError extends Error {
  override name = 'TwoFactorKeyError';
  constructor(readonly userId: number) {
    super(`The two-factor secret of account ${userId} cannot be decrypted with this server's data key.`);
  }
}

/** What {@link TwoFactor.checkSecrets} found at start-up. */
export interface SecretsCheck {
  /** Secrets in use (enrolled or pending). */
  total: number;
  /** Secrets sealed with an earlier key of this server (the JWT-derived one) and sealed again with the current key. */
  resealed: number;
  /** Accounts whose secret no key opens. */
  unreadable: Array<{ id: number; email: string; enabled: boolean }>;
}

/**
 * TOTP two-factor of an account: enrolment (a pending secret confirmed by one code), the check of a
 * code at sign-in (each time step accepted once, recorded atomically, so a code cannot be replayed
 * even by two requests at once), single-use recovery codes, and turning it off. Secrets are kept
 * encrypted with `key` (see `totpKeyFrom`).
 */
export class TwoFactor {
  private readonly key: Buffer;
  private readonly keys: Buffer[];

  /** `keys[0]` seals; every key opens (the others are earlier keys, see `checkSecrets`). */
  constructor(keys: Buffer | Buffer[]) {
    this.keys = [keys].flat();
    this.key = this.keys[0]!;
  }

  /** The secret in clear, and whether it was sealed with an earlier key. */
  private open(user: Pick<UserRow, 'id' | 'totp_secret'>): { secret: string; stale: boolean } {
    for (const [index, key] of this.keys.entries()) {
      try {
        return { secret: decryptSecret(key, user.totp_secret!), stale: index > 0 };
      } catch {
        // Try the next key.
      }
    }
    throw new TwoFactorKeyError(user.id);
  }

  /**
   * At start-up: opens every stored secret, seals the ones an earlier key sealed with the current
   * key, and lists the accounts whose secret no key opens (so the server says so at start, not a
   * sign-in later).
   */
  async checkSecrets(db: Db): Promise<SecretsCheck> {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'email', 'totp_secret', 'totp_enabled_at'])
      .where('totp_secret', 'is not', null)
      .orderBy('id')
      .execute();
    const result: SecretsCheck = { total: rows.length, resealed: 0, unreadable: [] };
    for (const row of rows) {
      try {
        const { secret, stale } = this.open(row);
        if (!stale) continue;
        await db
          .updateTable('users')
          .set({ totp_secret: encryptSecret(this.key, secret) })
          .where('id', '=', row.id)
          .where('totp_secret', '=', row.totp_secret)
          .execute();
        result.resealed++;
      } catch (error) {
        if (!(error instanceof TwoFactorKeyError)) throw error;
        result.unreadable.push({ id: row.id, email: row.email, enabled: Boolean(row.totp_enabled_at) });
      }
    }
    return result;
  }

  /** Starts (or restarts) enrolment: a new pending secret replaces any earlier pending one. */
  async begin(db: Db, user: UserRow): Promise<TwoFactorEnrolment> {
    const secret = newTotpSecret();
    await db
      .updateTable('users')
      .set({ totp_secret: encryptSecret(this.key, secret), totp_enabled_at: null, totp_last_step: null })
      .where('id', '=', user.id)
      .execute();
    return enrolmentOf(secret, user.email);
  }

  /**
   * Confirms enrolment with a code from the pending secret: turns two-factor on and returns ten new
   * recovery codes (only their hashes are stored). Null when the code does not match.
   */
  async confirm(db: Db, user: UserRow, code: string, now = Date.now()): Promise<string[] | null> {
    if (!user.totp_secret || user.totp_enabled_at) return null;
    let secret: string;
    try {
      secret = this.open(user).secret;
    } catch (error) {
      // A pending secret of another key (restored): the enrolment starts again.
      if (error instanceof TwoFactorKeyError) return null;
      throw error;
    }
    const step = matchTotpStep(secret, code.trim(), now);
    if (step === null) return null;
    const codes = newRecoveryCodes();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ totp_enabled_at: sql`now()`, totp_last_step: step }).where('id', '=', user.id).execute();
      await trx.deleteFrom('recovery_codes').where('user_id', '=', user.id).execute();
      await trx
        .insertInto('recovery_codes')
        .values(codes.map((c) => ({ user_id: user.id, code_hash: hashRecoveryCode(c) })))
        .execute();
    });
    return codes;
  }

  /**
   * Checks a sign-in code of an account with two-factor on: a TOTP code within ±1 step that is newer
   * than the last one accepted, or an unused recovery code. Uses it up; says which kind it was.
   */
  async verify(db: Db, user: UserRow, code: string, now = Date.now()): Promise<'totp' | 'recovery' | null> {
    if (!user.totp_secret || !user.totp_enabled_at) return null;
    const entered = code.trim();
    if (/^\d{6}$/.test(entered)) {
      const step = matchTotpStep(this.open(user).secret, entered, now);
      if (step === null) return null;
      const accepted = await db
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', user.id)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', String(step))]))
        .returning('id')
        .executeTakeFirst();
      return accepted ? 'totp' : null;
    }
    if (!isRecoveryCodeShape(entered)) return null;
    const used = await db
      .updateTable('recovery_codes')
      .set({ used_at: sql`now()` })
      .where('user_id', '=', user.id)
      .where('code_hash', '=', hashRecoveryCode(entered))
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return used ? 'recovery' : null;
  }

  /** Turns two-factor off: the secret and every recovery code go. */
  async disable(db: Db, userId: number): Promise<void> {
    const run = async (trx: Db) => {
      await trx.updateTable('users').set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null }).where('id', '=', userId).execute();
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    };
    // In the caller's transaction when it has one (an admin's reset), else in its own.
    if (db.isTransaction) await run(db);
    else await db.transaction().execute(run);
  }

  /** Recovery codes not used yet. */
  async remainingRecoveryCodes(db: Db, userId: number): Promise<number> {
    const row = await db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
