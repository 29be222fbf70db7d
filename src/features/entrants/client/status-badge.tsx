import { Badge } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import { useTranslation } from '../../../engine/index.js';

const COLORS: Record<string, 'gray' | 'blue' | 'yellow' | 'green' | 'red'> = {
  draft: 'gray',
  submitted: 'blue',
  pending: 'yellow',
  approved: 'green',
  rejected: 'red',
};

/** An entry's status as the console words it (`entities.contest.enum.status.*`). */
export function EntryStatus({ status }: { status: string }): ReactElement {
  const { t } = useTranslation();
  return (
    <Badge color={COLORS[status] ?? 'gray'} data-testid="entry-status">
      {t(`entities.contest.enum.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}
