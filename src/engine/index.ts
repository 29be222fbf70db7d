// The engine's one door for the features' client code: everything a feature's screens and client
// face may use of the engine is named here (features never import a deep path of src/engine).
export { formatLongDate } from './cells/dates.js';
export { safeHttpUrl } from './cells/safe-url.js';
export { ApiError, describeError } from './data/api-error.js';
export { entityText, entityTextValues, fieldLabel } from './data/entity-labels.js';
export type { EntityRecord } from './data/entity-queries.js';
export { entityListOptions, entityRecordOptions } from './data/entity-queries.js';
export type { QueryParams } from './data/http-client.js';
export { http } from './data/http-client.js';
export { queryKeys } from './data/query-keys.js';
export { restoreRecord } from './data/undo-toast.js';
export { mutationErrorText } from './data/use-entity-mutations.js';
export { findEntity, useMetaEntities } from './data/use-meta.js';
export type { RecordQuery, RecordStatus } from './data/use-record-query.js';
export { useRecordQuery } from './data/use-record-query.js';
export type { AuditPage } from './detail/record-history.js';
export { ChangesTable, EntryHeading, HistoryPager } from './detail/record-history.js';
export { EntityForm, type EntityFormProps } from './form/entity-form.js';
export { fieldMessages } from './form/field-messages.js';
export { useUnsavedChangesGuard } from './form/use-unsaved-changes-guard.js';
export { useTranslation } from './i18n/use-translation.js';
export { saveFile } from './list/export-button.js';
export type {
  CellProps,
  ClientExtension,
  DeleteImpact,
  MenuEntry,
  MenuGroup,
  PlaceholderScreen,
  RegisteredPart,
  RegisteredScreen,
} from './registry/index.js';
export { registerExtension, registeredScreens } from './registry/index.js';
export { useDialogs } from './ui/dialog-context.js';
export { FormField } from './ui/form-field.js';
export { formatDateTime } from './ui/format-date.js';
export { formatNumber } from './ui/format-number.js';
export { APP_TITLE_KEY, ScreenHeader, usePageTitle } from './ui/screen-header.js';
export { ErrorState, LoadingState, NoticeState } from './ui/screen-states.js';
export type { SessionApi } from './ui/session-context.js';
export { SessionContext, useSession } from './ui/session-context.js';
export { useToasts } from './ui/toast-context.js';
export { CodeField, EnrolmentView, RecoveryCodesView, twoFactorError } from './ui/two-factor-parts.js';
export type { Formatters } from './ui/use-format.js';
export { useFormat } from './ui/use-format.js';
export type { SelectOption } from './widgets/searchable-select.js';
export { SearchableSelect } from './widgets/searchable-select.js';
export { fromZonedInput, offsetLabel, toZonedInput, userTimeZone, zoneLabel, zoneOffsetMinutes } from './widgets/zoned-time.js';
