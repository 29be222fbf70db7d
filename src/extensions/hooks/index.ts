import type { BeforeWriteHook } from './hook-types.js';
import { examNotFinal } from './exam-not-final.js';
import { hashPassword } from './hash-password.js';
import { lowercaseEmail } from './lowercase-email.js';
import { slugFromName } from './slug-from-name.js';
import { assignmentRules } from './assignment-rules.js';
import { examRules } from './exam-rules.js';

export type { BeforeWriteHook, HookAuditEntry, HookErrors, HookServices, WriteHookContext, WriteHookInput } from './hook-types.js';

/**
 * Write hooks by the name a descriptor gives in `hooks.beforeWrite`. Add an entry to make a new
 * hook available; a descriptor naming one that is not here stops start-up.
 */
export const beforeWriteHooks: Readonly<Record<string, BeforeWriteHook>> = Object.freeze({
  'slug-from-name': slugFromName,
  'hash-password': hashPassword,
  'lowercase-email': lowercaseEmail,
  'exam-rules': examRules,
  'assignment-rules': assignmentRules,
  'exam-not-final': examNotFinal,
});

/**
 * Hooks that read nothing but the row they are given (no query), so an import may run them for
 * many rows at once. Others (a slug unique in the table) run one row at a time, each row written
 * before the next is prepared.
 */
export const rowLocalHooks: ReadonlySet<string> = new Set(['hash-password', 'lowercase-email']);
