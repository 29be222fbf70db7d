import type { Kysely } from 'kysely';
import type { LoadedEntity } from '../../shared/descriptor/types.js';

/** What a write hook sees: the entity, the validated data it may change, and the open transaction. */
export interface WriteHookContext {
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

/** A `beforeWrite` hook: runs after validation, before the row is written. */
export type BeforeWriteHook = (context: WriteHookContext) => void | Promise<void>;
