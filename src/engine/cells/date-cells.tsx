import { Flex, Text } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import { useTranslation } from '../i18n/use-translation.js';
import type { CellProps } from './cell-types.js';
import { formatLongDate, type RelativeAge, relativeAge } from './dates.js';

/** The long date in UTC (with the time on a detail page), or 'Invalid Date'. */
export function DateCell({ value, place }: CellProps): ReactElement {
  const { t, i18n } = useTranslation();
  const text = formatLongDate(value, i18n.language, place === 'detail');
  // <span className="rt-Text"> is what <Text> renders without props (cheaper for a list's many cells).
  return (
    <span className="rt-Text" style={{ whiteSpace: 'nowrap' }}>
      {text === 'invalid' || text === null ? t('common.invalid_date') : text}
    </span>
  );
}

/** 'Just now', '5 minutes ago', '3 hours ago', '2 days ago' in the reader's language. */
export function useRelativeText(): (age: RelativeAge) => string {
  const { t } = useTranslation();
  return (age) => (age.unit === 'now' ? t('common.relative.just_now') : t(`common.relative.${age.unit}_ago`, { count: age.count }));
}

/** The long date plus how long ago ('January 5, 2025 · 2 days ago'). */
export function RelativeDateCell({ value, place }: CellProps): ReactElement {
  const { t, i18n } = useTranslation();
  const relative = useRelativeText();
  const text = formatLongDate(value, i18n.language, place === 'detail');
  const age = relativeAge(value);
  if (text === 'invalid' || text === null || age === null || age === 'invalid') return <Text>{t('common.invalid_date')}</Text>;
  return (
    <Flex direction={place === 'detail' ? 'row' : 'column'} gap={place === 'detail' ? '2' : '0'} wrap="wrap">
      <Text style={{ whiteSpace: 'nowrap' }}>{text}</Text>
      <Text color="gray" size={place === 'detail' ? undefined : '1'}>
        {place === 'detail' ? `(${relative(age)})` : relative(age)}
      </Text>
    </Flex>
  );
}
