import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import {
  type AuthContext,
  assertPasswordPolicy,
  type ClientInfo,
  conflict,
  createResetToken,
  emailTaken,
  findUserByEmail,
  findUserById,
  hashPassword,
  INVITE_TOKEN_TTL_SECONDS,
  insertUser,
  linkColumnsOf,
  notFound,
  programmeLanguage,
  recipientLanguage,
  revokeResetTokens,
  type SystemTables,
  toAuthUser,
  type UserRow,
  writeAudit,
} from '../../../server/index.js';
import type { AccountSummary, AuthUser, SignInRecord } from '../../../shared/api-contract.js';
import { ADMIN_ROLE, type Role } from '../../../shared/roles.js';
import { assertLinksFree, checkLinks, linksByEmail, linksIn } from './account-links.js';

type Db = Kysely<SystemTables>;

/** What the accounts need of the app: its auth service, mailer, configuration, log and entities. */
export type AccountsHost = Pick<FastifyInstance, 'auth' | 'mailer' | 'config' | 'log' | 'entities'>;

/**
 * POST /api/accounts body: besides these, the link a role declares (`jury_id` for a juror: a record
 * id, or null), by its column.
 */
export interface InviteInput {
  name: string;
  email: string;
  role: Role;
  [link: string]: string | number | null | undefined;
}

/** POST /api/auth/register body: an account with its password set (and its role's link, as {@link InviteInput}). */
export interface RegisterInput {
  name: string;
  email: string;
  password: string;
  /** `admin` when absent. */
  role?: Role;
  [link: string]: string | number | null | undefined;
}

/** PUT /api/accounts/{id} body (and a link, as {@link InviteInput}). */
export interface AccountChanges {
  name?: string;
  role?: Role;
  [link: string]: string | number | null | undefined;
}

const refused = (message: string, messageKey: string) => conflict(message, [{ path: 'id', keyword: 'account', messageKey, params: {} }]);

const iso = (value: unknown) => (value ? new Date(value as Date | string).toISOString() : null);

/** An account as the accounts screen lists it. */
export function toAccountSummary(row: UserRow): AccountSummary {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    ...linkColumnsOf(row),
    status: row.disabled_at ? 'disabled' : row.password_hash ? 'active' : 'invited',
    last_login_at: iso(row.last_login_at),
    two_factor: Boolean(row.totp_enabled_at),
    invited_at: iso(row.invited_at),
    disabled_at: iso(row.disabled_at),
    created_at: iso(row.created_at)!,
  };
}

/**
 * The admins' accounts screen: list, invite by e-mail (a 72 h single-use
 * set-password link), register with a password, resend, change name, role or link, disable and
 * enable (every session of the account ends at once), and the sign-in history. An admin may not
 * disable or demote themself, nor the last active admin. Every action is audited. A role's link
 * (`src/shared/roles.ts`) is checked by {@link checkLinks}.
 *
 * @example const invites = new AccountsAdmin(app); await invites.createInvited(trx, request.user, { name, email, role: 'juror', jury_id: id }, clientOf(request));
 */
export class AccountsAdmin {
  constructor(private readonly app: AccountsHost) {}

  private get auth() {
    return this.app.auth;
  }

  private get db(): Db {
    return this.app.auth.db;
  }

  async list(): Promise<AccountSummary[]> {
    const rows = await this.db.selectFrom('users').selectAll().orderBy('name').orderBy('id').execute();
    return rows.map(toAccountSummary);
  }

  private async get(id: number): Promise<UserRow> {
    const row = await findUserById(this.db, id);
    if (!row) throw notFound('No account has this ID.');
    return row;
  }

  /** Creates the account without a password and mails its set-password link. */
  async invite(by: AuthContext, input: InviteInput, client: ClientInfo): Promise<AccountSummary> {
    const created = await this.db.transaction().execute(async (trx) => {
      const row = await this.createInvited(trx, by, input, client);
      await this.sendInvitation(row, by, trx);
      return row;
    });
    return toAccountSummary(created);
  }

  /**
   * Inserts an invited account (no password yet, the programme's default language) in the caller's
   * transaction, its link checked in it, and audits it. Mail its link with {@link sendInvitation}
   * in the same transaction (another feature makes the account of a record it has just created this way).
   */
  async createInvited(trx: Db, by: AuthContext, input: InviteInput, client: ClientInfo): Promise<UserRow> {
    const links = await checkLinks(trx, this.app.entities, input.role, await linksByEmail(trx, this.app.entities, input.role, linksIn(input), input.email));
    await assertLinksFree(trx, links);
    if (await findUserByEmail(trx, input.email)) throw emailTaken();
    const row = await insertUser(trx, { name: input.name.trim(), email: input.email, passwordHash: null, role: input.role, links });
    if (!row) throw emailTaken();
    const invited = await trx
      .updateTable('users')
      .set({
        invited_at: sql`now()`,
        invited_by: by.id,
        preferences: sql<string>`preferences || ${JSON.stringify({ language: await programmeLanguage(trx) })}::jsonb`,
      })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeAudit(trx, { action: 'accounts.invite', userId: by.id, ip: client.ip, details: { accountId: row.id, role: input.role, ...links } });
    return invited;
  }

  /**
   * Creates an account with its password set (an admin unless `role` says otherwise), its role's
   * link checked. 409 on the e-mail when it is taken.
   */
  async register(by: AuthContext, input: RegisterInput, client: ClientInfo): Promise<AuthUser> {
    const role = input.role ?? ADMIN_ROLE;
    const links = await checkLinks(this.db, this.app.entities, role, await linksByEmail(this.db, this.app.entities, role, linksIn(input), input.email));
    await assertLinksFree(this.db, links);
    await assertPasswordPolicy(input.password, input.email, 'password');
    if (await findUserByEmail(this.db, input.email)) throw emailTaken();
    const created = await insertUser(this.db, { name: input.name.trim(), email: input.email, passwordHash: await hashPassword(input.password), role, links });
    if (!created) throw emailTaken();
    await writeAudit(this.db, { action: 'auth.register', userId: by.id, ip: client.ip, details: { createdUserId: created.id, role, ...links } });
    return toAuthUser(created);
  }

  /**
   * Mails a new link to an account that has not set its password yet; the old link stops working.
   * In the caller's transaction `db` when given (its mail with it), else in one of its own.
   */
  async resend(by: AuthContext, id: number, client: ClientInfo, db?: Db): Promise<AccountSummary> {
    if (!db) return this.db.transaction().execute((trx) => this.resend(by, id, client, trx));
    const row = await findUserById(db, id);
    if (!row) throw notFound('No account has this ID.');
    if (row.password_hash) throw refused('This account has already set its password.', 'pages.accounts.errors.notInvited');
    if (row.disabled_at) throw refused('This account is disabled.', 'pages.accounts.errors.disabled');
    await revokeResetTokens(db, row.id);
    const updated = await db.updateTable('users').set({ invited_at: sql`now()` }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow();
    await writeAudit(db, { action: 'accounts.invite_resent', userId: by.id, ip: client.ip, details: { accountId: row.id } });
    await this.sendInvitation(updated, by, db);
    return toAccountSummary(updated);
  }

  /**
   * Mails the account a new 72 h single-use set-password link, in the account's language, written
   * in `db` (the transaction that invites it: the outbox row exists exactly when the account does).
   */
  async sendInvitation(account: UserRow, by: AuthContext, db: Db): Promise<void> {
    const token = await createResetToken(db, account.id, 'invite');
    const link = `${this.app.config.publicUrl}/set-password?token=${encodeURIComponent(token)}`;
    await this.app.mailer.send(
      {
        to: account.email,
        userId: account.id,
        language: await recipientLanguage(db, account),
        template: 'invitation',
        vars: { name: account.name, inviter: by.name, hours: INVITE_TOKEN_TTL_SECONDS / 3600 },
        link,
      },
      { db },
    );
  }

  /** Changes an account's name, role or link; a role change ends its sessions (the token carries the role). */
  async update(by: AuthContext, id: number, changes: AccountChanges, client: ClientInfo): Promise<AccountSummary> {
    return this.guarded(id, async (trx, row) => {
      const role = changes.role ?? row.role;
      if (role !== row.role && row.role === ADMIN_ROLE) await this.assertNotLastAdmin(trx, by, row, 'demote');
      const current = linkColumnsOf(row);
      const given = await linksByEmail(trx, this.app.entities, role, linksIn(changes), row.email, role === row.role ? current : {});
      const links = await checkLinks(trx, this.app.entities, role, given, current);
      await assertLinksFree(trx, links, id);
      const updated = await trx
        .updateTable('users')
        .set({ name: changes.name?.trim() ?? row.name, role, updated_at: sql`now()`, ...links })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (role !== row.role) await this.auth.revokeAll(id, 'role_changed', undefined, trx);
      await writeAudit(trx, {
        action: 'accounts.update',
        userId: by.id,
        ip: client.ip,
        details: { accountId: id, fields: Object.keys(changes), ...(role !== row.role ? { from: row.role, to: role } : {}) },
      });
      return toAccountSummary(updated);
    });
  }

  /** Disables an account: it can no longer sign in, and every session of it ends now. */
  async disable(by: AuthContext, id: number, client: ClientInfo): Promise<AccountSummary> {
    return this.guarded(id, async (trx, row) => {
      if (row.disabled_at) return toAccountSummary(row);
      if (row.role === ADMIN_ROLE) await this.assertNotLastAdmin(trx, by, row, 'disable');
      const updated = await trx.updateTable('users').set({ disabled_at: sql`now()` }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      await this.auth.revokeAll(id, 'disabled', undefined, trx);
      await writeAudit(trx, { action: 'accounts.disable', userId: by.id, ip: client.ip, details: { accountId: id } });
      return toAccountSummary(updated);
    });
  }

  async enable(by: AuthContext, id: number, client: ClientInfo): Promise<AccountSummary> {
    return this.guarded(id, async (trx, row) => {
      if (!row.disabled_at) return toAccountSummary(row);
      const updated = await trx.updateTable('users').set({ disabled_at: null }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      await writeAudit(trx, { action: 'accounts.enable', userId: by.id, ip: client.ip, details: { accountId: id } });
      return toAccountSummary(updated);
    });
  }

  /**
   * Resets another account's two-factor (its phone or its recovery codes lost, or its secret sealed
   * with another server's data key after a restore): the secret and the recovery codes go, the
   * account signs in with its password and may enrol again. Not one's own (that is the profile's,
   * with the password and a code). Audited; the account's holder is told by mail (`twoFactorReset`).
   */
  async resetTwoFactor(by: AuthContext, id: number, client: ClientInfo): Promise<AccountSummary> {
    const updated = await this.guarded(id, async (trx, row) => {
      if (row.id === by.id) throw refused('An admin cannot reset their own two-factor here; use the profile.', 'pages.accounts.errors.resetTwoFactorSelf');
      if (!row.totp_secret && !row.totp_enabled_at) throw refused('Two-factor is not on for this account.', 'pages.accounts.errors.twoFactorOff');
      await this.auth.twoFactor.disable(trx, id);
      await writeAudit(trx, {
        action: 'accounts.2fa_reset',
        userId: by.id,
        ip: client.ip,
        details: { accountId: id, wasEnabled: Boolean(row.totp_enabled_at) },
      });
      const reset = (await findUserById(trx, id))!;
      // The holder is told by mail, written in this transaction (the outbox row exists exactly when the reset does).
      await this.app.mailer.send(
        { to: reset.email, userId: reset.id, language: await recipientLanguage(trx, reset), template: 'twoFactorReset', vars: { name: reset.name } },
        { db: trx },
      );
      return reset;
    });
    return toAccountSummary(updated);
  }

  /** The account's sign-ins, newest first (sessions are kept 90 days), and how each ended. */
  async history(id: number): Promise<SignInRecord[]> {
    await this.get(id);
    const rows = await this.db
      .selectFrom('sessions')
      .select([
        'created_at',
        'ip',
        'user_agent',
        'revoked_reason',
        'revoked_at',
        sql<boolean>`revoked_at is null and idle_expires_at > now() and absolute_expires_at > now()`.as('live'),
        sql<Date>`least(idle_expires_at, absolute_expires_at)`.as('expires_at'),
      ])
      .where('user_id', '=', id)
      .orderBy('created_at', 'desc')
      .limit(100)
      .execute();
    return rows.map((row) => ({
      started_at: iso(row.created_at)!,
      ip: row.ip,
      user_agent: row.user_agent,
      ended: row.revoked_reason ?? (row.live ? 'active' : 'expired'),
      ended_at: row.revoked_at ? iso(row.revoked_at) : row.live ? null : iso(row.expires_at),
    }));
  }

  /**
   * Runs a change of one account in a transaction that holds every admin row locked, so two admins
   * disabling each other at once cannot leave no active admin.
   */
  private async guarded<T>(id: number, work: (trx: Db, row: UserRow) => Promise<T>): Promise<T> {
    const result = await this.db.transaction().execute(async (trx) => {
      await trx
        .selectFrom('users')
        .select('id')
        .where((eb) => eb.or([eb('role', '=', ADMIN_ROLE), eb('id', '=', id)]))
        .orderBy('id')
        .forUpdate()
        .execute();
      const row = await findUserById(trx, id);
      if (!row) throw notFound('No account has this ID.');
      return work(trx, row);
    });
    // A request that read a session as live before the commit may have cached it: forget it all
    // (the cache holds at most a second of checks), so the account's next call is refused.
    this.auth.cache.clear();
    return result;
  }

  private async assertNotLastAdmin(trx: Db, by: AuthContext, row: UserRow, what: 'disable' | 'demote'): Promise<void> {
    if (row.id === by.id) {
      throw refused(
        `An admin cannot ${what} their own account.`,
        what === 'disable' ? 'pages.accounts.errors.disableSelf' : 'pages.accounts.errors.demoteSelf',
      );
    }
    const others = await trx
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', ADMIN_ROLE)
      .where('disabled_at', 'is', null)
      .where('password_hash', 'is not', null)
      .where('id', '!=', row.id)
      .executeTakeFirstOrThrow();
    if (Number(others.n) === 0) {
      throw refused(`The last active admin cannot be ${what === 'disable' ? 'disabled' : 'demoted'}.`, 'pages.accounts.errors.lastAdmin');
    }
  }
}
