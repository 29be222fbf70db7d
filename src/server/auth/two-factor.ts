import { type Kysely, sql } from 'kysely';
import type { TwoFactorEnrolment } from '../../shared/api-contract.js';
import type { SystemTables } from '../db/system-tables.js';
import { decryptSecret, encryptSecret, enrolmentOf, hashRecoveryCode, isRecoveryCodeShape, matchTotpStep, newRecoveryCodes, newTotpSecret } from './totp.js';
import type { UserRow } from './users.js';

type Db = Kysely<SystemTables>;

/**
 * TOTP two-factor of an account: enrolment (a pending secret confirmed by one code), the check of a
 * code at sign-in (each time step accepted once, recorded atomically, so a code cannot be replayed
 * even by two requests at once), single-use recovery codes, and turning it off. Secrets are kept
 * encrypted with `key` (see `totpKeyFrom`).
 */
export class TwoFactor {
  constructor(private readonly key: Buffer) {}

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
    const step = matchTotpStep(decryptSecret(this.key, user.totp_secret), code.trim(), now);
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
      const step = matchTotpStep(decryptSecret(this.key, user.totp_secret), entered, now);
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
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null }).where('id', '=', userId).execute();
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    });
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
