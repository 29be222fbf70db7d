import { Badge } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import type { BadgeOption } from '../../shared/descriptor/types.js';
import { useTranslation } from '../i18n/use-translation.js';
import { type CellProps, toText } from './cell-types.js';

/** Whether a status value means active: `active`, `true`, `1` (a company's `is_active` is 1). */
export function isActiveValue(value: unknown): boolean | null {
  if (value === true || value === 1 || value === '1' || value === 'true' || value === 'active') return true;
  if (value === false || value === 0 || value === '0' || value === 'false' || value === 'inactive') return false;
  return null;
}

/** Active (green) / Inactive (grey) for `status` strings and `is_active` booleans; else grey 'Unknown'. */
export function StatusBadgeCell({ value }: CellProps): ReactElement {
  const { t } = useTranslation();
  const active = isActiveValue(value);
  if (active === null) return <Badge color="gray">{t('common.status.unknown')}</Badge>;
  return (
    <Badge color={active ? 'green' : 'gray'} variant="soft" radius="full">
      {t(active ? 'common.status.active' : 'common.status.inactive')}
    </Badge>
  );
}

/**
 * The value's badge from the descriptor's `badges` (label key and colour), else its
 * `fallbackBadge` (e.g. statuses: others are a grey 'Unknown'), else the raw value in grey.
 */
export function BadgeCell({ value, display }: CellProps): ReactElement {
  const { t } = useTranslation();
  const option: BadgeOption | undefined = display.badges?.[String(value)] ?? display.fallbackBadge;
  if (!option) return <Badge color="gray">{toText(value)}</Badge>;
  return (
    <Badge color={option.color} variant="soft" radius="full">
      {t(option.label)}
    </Badge>
  );
}
