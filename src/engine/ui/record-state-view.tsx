import type { ReactElement } from 'react';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { describeError } from '../data/api-error.js';
import { entityText } from '../data/entity-labels.js';
import type { RecordQuery } from '../data/use-record-query.js';
import { useTranslation } from '../i18n/use-translation.js';
import { ErrorState, LoadingState, NoticeState } from './screen-states.js';

/** Props of {@link RecordStateView}. */
export interface RecordStateViewProps {
  entity: ClientEntity;
  /** Where loading the record stands (any status but `ready`). */
  state: Pick<RecordQuery, 'status' | 'error'>;
  /** The way back ('Back to Category List'). */
  back: { to: string; label: string };
  /** What a missing record shows instead of 'Category not found.' with the way back. */
  notFound?: ReactElement;
}

/**
 * A record screen before its record is in: 'Invalid category ID' (nothing was asked), a spinner,
 * 'Category not found.', or 'Error loading category: …', each with the way back.
 */
export function RecordStateView({ entity, state, back, notFound }: RecordStateViewProps): ReactElement {
  const { t } = useTranslation();
  if (state.status === 'invalid-id') return <ErrorState message={entityText(entity, 'invalidId', t)} back={back} />;
  if (state.status === 'loading') return <LoadingState />;
  if (state.status === 'not-found') return notFound ?? <NoticeState message={entityText(entity, 'notFound', t)} back={back} />;
  return <ErrorState message={entityText(entity, 'loadOneError', t, { message: describeError(state.error, t) })} back={back} />;
}
