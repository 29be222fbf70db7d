import type { Kysely } from 'kysely';
import type { FieldError } from '../../shared/api-contract.js';
import type { LoadedEntity } from '../../shared/descriptor/types.js';

/** The errors a hook throws; the server answers them as it answers its own. */
export interface HookErrors {
  /** 409 `CONFLICT` (a clash with stored data), with field errors when they belong under fields. */
  conflict(message: string, errors?: FieldError[]): Error;
  /** 422 `VALIDATION`, naming each field. */
  validationFailed(errors: FieldError[], message?: string): Error;
}

/** One audit row a hook adds to the write's transaction (see `writeAudit`: never a password or a token in `details`). */
export interface HookAuditEntry {
  action: string;
  userId?: number | null;
  entity?: string | null;
  entityId?: string | number | null;
  details?: Record<string, unknown>;
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
}

/** A write as the server hands it to the hooks, before it lends its services. */
export type WriteHookInput = Omit<WriteHookContext, keyof HookServices>;

/** A `beforeWrite` hook: runs after validation, before the row is written. */
export type BeforeWriteHook = (context: WriteHookContext) => void | Promise<void>;
