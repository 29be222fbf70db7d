// Numbers, money, sizes and moments for texts the server words itself (mails: a moment in UTC, said so).
export { formatBytes, formatDate, formatDateTime, formatMoney, formatNumber, formatScore } from '../shared/format.js';
export { AccountService, assertPasswordPolicy, emailTaken } from './auth/account-service.js';
export { writeAudit } from './auth/audit.js';
export type { AuthContext, AuthService, ClientInfo } from './auth/auth-service.js';
export { invalidCode } from './auth/auth-service.js';
export { DEFAULT_LANGUAGE_SETTING, isMailLanguage, programmeLanguage, recipientLanguage } from './auth/mail-language.js';
export type { Mailer, MailLanguage, MailMessage, OutgoingMail, SendOptions, TemplatedMail } from './auth/mailer.js';
export { isTemplated, MAIL_LANGUAGES, renderedMail, renderMail, translate } from './auth/mailer.js';
export { hashPassword } from './auth/password.js';
export { createResetToken, INVITE_TOKEN_TTL_SECONDS, revokeResetTokens } from './auth/password-resets.js';
export type { NewUser, UserRow } from './auth/users.js';
export { findUserByEmail, findUserById, insertUser, linkColumnsOf, toAuthUser } from './auth/users.js';
export { runCli } from './backup/run-cli.js';
export type { AppConfig } from './config.js';
export { acquireDataDirLock } from './data-dir-lock.js';
export { openDatabase } from './db/kysely.js';
export { migrateToLatest } from './db/migrate.js';
export { versionFeatureTable } from './db/sync/data-versions.js';
export { MANAGED_PREFIXES } from './db/sync/desired-schema.js';
export { syncEntityTables } from './db/sync/index.js';
export type { SystemTables } from './db/system-tables.js';
export { AppError, badRequest, conflict, forbidden, notFound, unauthenticated, unavailable, validationFailed } from './errors.js';
export { hookFor } from './extensions.js';
export type { ServerFeature } from './features.js';
export { registerServerFeature } from './features.js';
export { keyAuditLogOf } from './history/audit-chain.js';
export { emptyTrash, listTrash, restoreFromTrash } from './history/trash.js';
export { listQuerySchema, recordSchema } from './openapi/entity-schemas.js';
export type { EntityRegistry, OperationContext } from './operations/context.js';
export { createRegistry, readableFields, selectionOf, storedFields } from './operations/context.js';
export { GROUP_COUNTS_TABLE, groupedCounts } from './operations/count/group-counts.js';
export type { CountRequest } from './operations/count.js';
export { ROW_COUNTS_TABLE } from './operations/count.js';
export { filteredQuery } from './operations/list.js';
export { type DataVersionSnapshot, readDataVersion } from './operations/list-cache.js';
export type { ListQuery } from './operations/list-query.js';
export { parseListQuery } from './operations/list-query.js';
export type { ListScope, ListScopeConditions, ListScopeInput } from './operations/list-scope.js';
export { applyListScope, hasListScopes, listScopeOf } from './operations/list-scope.js';
export { parseRecordId } from './operations/record-id.js';
export { remove } from './operations/remove.js';
export type { RemoveGuard, RemoveGuardInput } from './operations/remove-guards.js';
export { update } from './operations/update.js';
export { validateWriteBody } from './operations/write-body.js';
export { runBeforeWrite, toColumnValues, uniqueConflict } from './operations/write-helpers.js';
export { loadConfiguredEntities } from './plugins/entities.js';
export {
  ANY_PASSWORD_SCHEMA,
  authUserSchema,
  clientOf,
  codeMessages,
  EMAIL_SCHEMA,
  emailMessages,
  NAME_SCHEMA,
  NEW_PASSWORD_SCHEMA,
  NO_BODY_SCHEMA,
  NO_CONTENT,
  nameMessages,
  object,
  passwordMessages,
  rememberDevice,
  TWO_FACTOR_CODE_SCHEMA,
  TWO_FACTOR_ENROLMENT_SCHEMA,
} from './routes/auth.js';
export type { ScheduledJob } from './scheduler/scheduler.js';
export { registerScheduledJob } from './scheduler/scheduler.js';
export { cachedProductName, productName, setProductName } from './settings/product-name.js';
