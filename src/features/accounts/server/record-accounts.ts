import { type Kysely, sql } from 'kysely';
import {
  AppError,
  type AuthContext,
  type ClientInfo,
  conflict,
  findUserByEmail,
  notFound,
  type SystemTables,
  type UserRow,
  validationFailed,
  writeAudit,
} from '../../../server/index.js';
import { type RoleLink, roleLinks } from '../../../shared/roles.js';
import { type AccountsAdmin, type AccountsHost, toAccountSummary } from './accounts-admin.js';

type Db = Kysely<SystemTables>;

/** A declared role link with the role that declares it. */
export type DeclaredLink = RoleLink & { role: string };

/** The portal account of a record: none yet, invited (no password yet), active or disabled. */
export type RecordAccountState = 'none' | 'invited' | 'active' | 'disabled';

/** A record's portal account, as its detail page shows it. */
export interface RecordAccount {
  record_id: number;
  state: RecordAccountState;
  account_id: number | null;
  email: string | null;
  invited_at: string | null;
  last_login_at: string | null;
}

/** What inviting one record did: a new invited account, an existing account linked, or the invitation sent again. */
export type InviteOutcome = 'invited' | 'linked' | 'resent';

/** Why a record of a bulk invitation was left out (the message key's last part). */
export type SkipReason = 'not_found' | 'active' | 'invited' | 'disabled' | 'email_taken' | 'no_email';

/** A bulk invitation's answer: how many were invited (new or linked) and which were skipped, and why. */
export interface BulkInviteResult {
  invited: number;
  skipped: Array<{ id: number; name: string | null; reason: SkipReason }>;
}

const refusal = (status: 404 | 409 | 422, reason: SkipReason, message: string) => {
  const errors = [{ path: 'id', keyword: 'account', messageKey: `accounts.portal.skipped.${reason}`, params: {} }];
  if (status === 404) return new AppError(404, 'NOT_FOUND', message, errors);
  return status === 409 ? conflict(message, errors) : validationFailed(errors, message);
};

const stateOf = (row: UserRow | undefined): RecordAccountState => (!row ? 'none' : row.disabled_at ? 'disabled' : row.password_hash ? 'active' : 'invited');

/**
 * The portal accounts of the records a role links to (a juror's account of a `jury` record):
 * each record's account state, inviting one record (its account created linked to it, an existing
 * unlinked account of the role with its e-mail linked, or a pending invitation sent again), and
 * inviting many at once (each skipped record with its reason). Every write is audited.
 */
export class RecordAccounts {
  constructor(
    private readonly app: AccountsHost,
    private readonly admin: AccountsAdmin,
  ) {}

  private get db(): Db {
    return this.app.auth.db;
  }

  private table(link: DeclaredLink): string {
    const table = this.app.entities.byName.get(link.entity)?.descriptor.table;
    if (!table) throw notFound('This entity is not loaded.');
    return table;
  }

  private async record(db: Db, link: DeclaredLink, id: number) {
    const loaded = this.app.entities.byName.get(link.entity)!;
    const title = loaded.descriptor.titleField;
    const row = await sql<{ id: number; name: unknown; email: string | null }>`
      select id, ${sql.ref(title)} as name, email from ${sql.table(this.table(link))} where id = ${id}`.execute(db);
    return row.rows[0];
  }

  private async linkedAccount(db: Db, link: DeclaredLink, id: number): Promise<UserRow | undefined> {
    const rows = await sql<UserRow>`select * from users where ${sql.ref(link.column)} = ${id} order by id limit 1`.execute(db);
    return rows.rows[0];
  }

  /** The record's account and its state; 404 when the record does not exist. */
  async state(link: DeclaredLink, id: number): Promise<RecordAccount> {
    if (!(await this.record(this.db, link, id))) throw notFound('No record has this ID.');
    const account = await this.linkedAccount(this.db, link, id);
    const summary = account ? toAccountSummary(account) : undefined;
    return {
      record_id: id,
      state: stateOf(account),
      account_id: account?.id ?? null,
      email: account?.email ?? null,
      invited_at: summary?.invited_at ?? null,
      last_login_at: summary?.last_login_at ?? null,
    };
  }

  /**
   * Invites the record to the portal: creates its invited account (linked to it, the record's name
   * and e-mail), or links the unlinked account of the role that has its e-mail, or (unless
   * `resend` is false) sends a pending invitation again. 409 when its account is active or
   * disabled, or its e-mail belongs to an account of another role; 422 when it has no e-mail.
   */
  async invite(by: AuthContext, link: DeclaredLink, id: number, client: ClientInfo, resend = true): Promise<{ outcome: InviteOutcome; state: RecordAccount }> {
    const prepared = await this.db.transaction().execute(async (trx) => {
      const made = await this.prepare(trx, by, link, id, client, resend ? 'resend' : 'refuse');
      await this.deliver(trx, by, made, client);
      return made;
    });
    return { outcome: prepared.outcome as InviteOutcome, state: await this.state(link, id) };
  }

  /**
   * The record's account inside the caller's transaction (see {@link invite}); `whenLinked` says
   * what an account already linked to the record gets: its pending invitation again (`resend`), a
   * 409 (`refuse`), or nothing (`keep`: an approval of a juror who has an account). Call
   * {@link deliver} in the same transaction.
   */
  async prepare(
    trx: Db,
    by: AuthContext,
    link: DeclaredLink,
    id: number,
    client: ClientInfo,
    whenLinked: 'resend' | 'refuse' | 'keep',
  ): Promise<{ outcome: InviteOutcome | 'kept'; account: UserRow }> {
    const record = await this.record(trx, link, id);
    if (!record) throw refusal(404, 'not_found', 'No record has this ID.');
    const linked = await this.linkedAccount(trx, link, id);
    if (linked) {
      if (whenLinked === 'keep') return { outcome: 'kept', account: linked };
      const state = stateOf(linked);
      if (state !== 'invited' || whenLinked === 'refuse')
        throw refusal(409, state === 'invited' ? 'invited' : state === 'active' ? 'active' : 'disabled', `This record's account is ${state}.`);
      return { outcome: 'resent', account: linked };
    }
    if (!record.email) throw refusal(422, 'no_email', 'This record has no e-mail.');
    const same = await findUserByEmail(trx, record.email);
    if (same) {
      if (same.role !== link.role || ((same as unknown as Record<string, unknown>)[link.column] ?? null) !== null) {
        throw conflict('Another account has this e-mail.', [{ path: 'email', keyword: 'unique', messageKey: 'validation.email.unique', params: {} }]);
      }
      if (same.disabled_at) throw refusal(409, 'disabled', 'The account with this e-mail is disabled.');
      const updated = await trx
        .updateTable('users')
        .set({ [link.column]: id, updated_at: sql`now()` } as never)
        .where('id', '=', same.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await writeAudit(trx, {
        action: 'accounts.update',
        userId: by.id,
        ip: client.ip,
        details: { accountId: same.id, fields: [link.column], [link.column]: id },
      });
      return { outcome: 'linked', account: updated };
    }
    const name = typeof record.name === 'string' && record.name.trim().length >= 2 ? record.name : record.email;
    return { outcome: 'invited', account: await this.admin.createInvited(trx, by, { name, email: record.email, role: link.role, [link.column]: id }, client) };
  }

  /** Mails what {@link prepare} decided, in its transaction `trx`: a new invitation, or a pending one again. */
  async deliver(trx: Db, by: AuthContext, prepared: { outcome: InviteOutcome | 'kept'; account: UserRow }, client: ClientInfo): Promise<void> {
    const { outcome, account } = prepared;
    if (outcome === 'resent' || (outcome === 'linked' && !account.password_hash)) await this.admin.resend(by, account.id, client, trx);
    else if (outcome === 'invited') await this.admin.sendInvitation(account, by, trx);
  }

  /** Invites each record in turn (none already invited is sent again); answers how many were invited and which were skipped, and why. */
  async inviteMany(by: AuthContext, link: DeclaredLink, ids: readonly number[], client: ClientInfo): Promise<BulkInviteResult> {
    const result: BulkInviteResult = { invited: 0, skipped: [] };
    for (const id of new Set(ids)) {
      try {
        await this.invite(by, link, id, client, false);
        result.invited += 1;
      } catch (error) {
        const key = error instanceof AppError ? error.errors?.[0]?.messageKey : undefined;
        if (!key?.startsWith('accounts.portal.skipped.') && !key?.startsWith('validation.')) throw error;
        const reason = (key.startsWith('accounts.portal.skipped.') ? key.slice('accounts.portal.skipped.'.length) : 'email_taken') as SkipReason;
        const record = await this.record(this.db, link, id);
        result.skipped.push({ id, name: record && typeof record.name === 'string' ? record.name : null, reason });
      }
    }
    return result;
  }

  /** Every record of the link's entity (up to 5,000, by name) with its portal account's state: what the bulk invitation lists. */
  async states(link: DeclaredLink): Promise<Array<{ id: number; name: string; email: string | null; state: RecordAccountState }>> {
    const title = this.app.entities.byName.get(link.entity)!.descriptor.titleField;
    const rows = await sql<{ id: number; name: unknown; email: string | null; disabled_at: unknown; password_hash: string | null; account: number | null }>`
      select r.id, r.${sql.ref(title)} as name, r.email, u.id as account, u.disabled_at, u.password_hash
      from ${sql.table(this.table(link))} r left join users u on u.${sql.ref(link.column)} = r.id
      order by 2, r.id limit 5000`.execute(this.db);
    return rows.rows.map((row) => ({
      id: row.id,
      name: String(row.name ?? `#${row.id}`),
      email: row.email,
      state: row.account === null ? 'none' : row.disabled_at ? 'disabled' : row.password_hash ? 'active' : 'invited',
    }));
  }

  /** The records of the link's entity no account stands for yet (id, name, e-mail), by name: what the invite form offers. */
  async candidates(link: DeclaredLink): Promise<Array<{ id: number; name: string; email: string | null }>> {
    const title = this.app.entities.byName.get(link.entity)!.descriptor.titleField;
    const rows = await sql<{ id: number; name: unknown; email: string | null }>`
      select r.id, r.${sql.ref(title)} as name, r.email from ${sql.table(this.table(link))} r
      where not exists (select 1 from users u where u.${sql.ref(link.column)} = r.id)
      order by 2, r.id limit 5000`.execute(this.db);
    return rows.rows.map((row) => ({ id: row.id, name: String(row.name ?? `#${row.id}`), email: row.email }));
  }
}

/** The link the role declares (the juror's `jury` record); throws when it declares none. */
export function declaredLink(role: string): DeclaredLink {
  const link = roleLinks().find((candidate) => candidate.role === role);
  if (!link) throw new Error(`The role "${role}" declares no link.`);
  return link;
}
