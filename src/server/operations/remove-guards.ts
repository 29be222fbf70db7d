import type { Kysely } from 'kysely';
import type { LoadedEntity } from '../../shared/descriptor/types.js';

/** What a remove guard is shown: the record about to be deleted, in the delete's transaction. */
export interface RemoveGuardInput {
  entity: LoadedEntity;
  /** The stored record (locked for the delete). */
  record: Record<string, unknown>;
  db: Kysely<any>;
  userId: number | null;
}

/**
 * A feature's check before any record is deleted (the editions feature: nothing of an archived
 * edition); it throws an `AppError` (409) to refuse, and the delete is rolled back.
 */
export type RemoveGuard = (input: RemoveGuardInput) => Promise<void>;

const guards: RemoveGuard[] = [];

/** Registers a remove guard (`ServerFeature.removeGuards`); the same function twice counts once. */
export function registerRemoveGuard(guard: RemoveGuard): void {
  if (!guards.includes(guard)) guards.push(guard);
}

/** Runs every registered remove guard, in registration order. */
export async function runRemoveGuards(input: RemoveGuardInput): Promise<void> {
  for (const guard of guards) await guard(input);
}
