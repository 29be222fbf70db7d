import type { Kysely } from 'kysely';
import type { FieldError } from '../api-contract.js';
import type { LoadedEntity } from '../descriptor/types.js';

/** The errors a hook throws; the server answers them as it answers its own. */
export interface HookErrors {
  /** 409 `CONFLICT` (a clash with stored data), with field errors when they belong under fields. */
  conflict(message: string, errors?: FieldError[]): Error;
  /** 422 `VALIDATION`, naming each field. */
  validationFailed(errors: FieldError[], message?: string): Error;
}

/** One audit row a hook adds to the write's transaction (see `writeAudit`: never a password or a token in `details`). */
export interface HookAuditEntry {
  /** What was done (`create`, `judging.finalise`, ...). */
  action: string;
  /** Who did it (null for a system action). */
  userId?: number | null;
  /** The record acted on. */
  entity?: string | null;
  entityId?: string | number | null;
  /** Extra facts; a text value under a secret-like key (password, token, ...) is dropped. */
  details?: Record<string, unknown>;
  /** The record before and after the action: their differing fields are stored, secrets never. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** What the server lends every hook, so that a hook imports nothing of the server's. */
export interface HookServices {
  errors: HookErrors;
  /** The account passwords' hash (scrypt, per-record salt); `bulk` uses the import cost. */
  hashPassword(password: string, options?: { bulk?: boolean }): Promise<string>;
  /** Appends an audit row in the write's transaction (it commits and rolls back with the write). */
  audit(entry: HookAuditEntry): Promise<void>;
}

/** What a write hook sees: the entity, the validated data it may change, the open transaction and the server's services. */
export interface WriteHookContext extends HookServices {
  entity: LoadedEntity;
  operation: 'create' | 'update';
  /** The validated body; the hook may add, change or remove fields before it is stored. */
  data: Record<string, unknown>;
  /** The stored record before an update. */
  previous?: Record<string, unknown>;
  /** The record's id on update. */
  id?: number;
  /** The write's transaction: queries here see and lock what the write will. */
  db: Kysely<any>;
  /** True when the write is one row of an import: a hook may use its cheaper bulk variant. */
  bulk?: boolean;
  /** Who writes (the signed-in person's id), when known; null or absent for a system write. */
  userId?: number | null;
}

/** A write as the server hands it to the hooks, before it lends its services. */
export type WriteHookInput = Omit<WriteHookContext, keyof HookServices>;

/** A `beforeWrite` hook: runs after validation, before the row is written. */
export type BeforeWriteHook = (context: WriteHookContext) => void | Promise<void>;

/** A hook as registered: its function and, when it reads nothing but the row it is given, `rowLocal`. */
export interface HookRegistration {
  beforeWrite: BeforeWriteHook;
  /**
   * True when the hook queries nothing (it only reads and changes `data`), so an import may run it
   * for many rows at once; others (a slug unique in the table) run one row at a time, each row
   * written before the next is prepared.
   */
  rowLocal?: boolean;
}

/** What an application registers on the server: write hooks by the name a descriptor's `hooks.beforeWrite` gives. */
export interface ServerExtension {
  hooks?: Readonly<Record<string, BeforeWriteHook | HookRegistration>>;
}

const hooks = new Map<string, HookRegistration>();

/**
 * Registers server hooks by name: the one call for an application's hooks, as for the ones the
 * console ships (`src/extensions/server/index.ts`). A descriptor naming a hook that is not
 * registered stops start-up. Registering one name twice with another function is an error.
 *
 * @example registerServerExtension({ hooks: { 'slug-from-name': slugFromName, 'hash-password': { beforeWrite: hashPassword, rowLocal: true } } });
 */
export function registerServerExtension(extension: ServerExtension): void {
  for (const [name, entry] of Object.entries(extension.hooks ?? {})) {
    const registration = typeof entry === 'function' ? { beforeWrite: entry } : entry;
    const existing = hooks.get(name);
    if (!existing) hooks.set(name, Object.freeze({ ...registration }));
    // The same hook again (a module evaluated twice) changes nothing; another hook is an error.
    else if (existing.beforeWrite !== registration.beforeWrite) throw new Error(`The server hook "${name}" is registered twice.`);
  }
}

/** The hook registered under `name`, or `undefined`. */
export function hookFor(name: string): HookRegistration | undefined {
  return hooks.get(name);
}

/** Names of every registered hook (what start-up checks descriptors against). */
export function registeredHookNames(): string[] {
  return [...hooks.keys()];
}
