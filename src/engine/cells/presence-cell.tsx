import { Badge, Flex, Text } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import { useTranslation } from '../i18n/use-translation.js';
import { type CellProps, isEmptyValue } from './cell-types.js';
import { formatLongDate } from './dates.js';

/**
 * Whether a value is set, as a badge: `badges.set` followed by the value as a long date
 * ('Verified · January 5, 2025'), or `badges.unset` ('Not Verified'). The one cell that also
 * renders an empty value (`FieldValue` hands it over).
 */
export function PresenceCell({ value, display, place }: CellProps): ReactElement {
  const { t, i18n } = useTranslation();
  const set = !isEmptyValue(value);
  const option = display.badges?.[set ? 'set' : 'unset'];
  const badge = (
    <Badge color={option?.color ?? (set ? 'green' : 'gray')} variant="soft" radius="full">
      {option ? t(option.label) : set ? t('common.yes') : t('common.no')}
    </Badge>
  );
  if (!set) return badge;
  const date = formatLongDate(value, i18n.language, place === 'detail');
  return (
    <Flex gap="2" align="center" wrap="wrap">
      {badge}
      {date && date !== 'invalid' && <Text color="gray">{date}</Text>}
    </Flex>
  );
}
