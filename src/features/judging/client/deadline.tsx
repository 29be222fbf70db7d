import { Text } from '@radix-ui/themes';
import type { ReactElement } from 'react';
import { userTimeZone, useTranslation, zoneLabel } from '../../../engine/index.js';

/** A span of time in the largest whole unit that fits (a minute up to weeks), signed: future positive. */
export function relativeSpan(ms: number, now: number): { value: number; unit: Intl.RelativeTimeFormatUnit } {
  const seconds = (ms - now) / 1000;
  const abs = Math.abs(seconds);
  const sign = seconds < 0 ? -1 : 1;
  if (abs >= 86_400) return { value: sign * Math.floor(abs / 86_400), unit: 'day' };
  if (abs >= 3_600) return { value: sign * Math.floor(abs / 3_600), unit: 'hour' };
  return { value: sign * Math.max(1, Math.floor(abs / 60)), unit: 'minute' };
}

/** An instant in `zone` in the reader's language: '12 Dec 2026, 17:00'. */
export function absoluteTime(ms: number, language: string, zone: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(new Date(ms));
}

/**
 * An exam's deadline on the portal: when it closes, relative ('in 3 days', 'dalam 3 hari') and
 * absolute in the user's time zone, the zone named ('Asia/Jakarta, UTC+7'); once passed, when it closed;
 * before an exam opens, when it opens. Nothing when the exam has no dates.
 */
export function Deadline(props: { opensAt: string | null; closesAt: string | null; now?: number; zone?: string }): ReactElement | null {
  const { t, i18n } = useTranslation();
  const now = props.now ?? Date.now();
  const zone = props.zone ?? userTimeZone();
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  const opens = props.opensAt ? Date.parse(props.opensAt) : Number.NaN;
  const closes = props.closesAt ? Date.parse(props.closesAt) : Number.NaN;
  const describe = (ms: number) => {
    const span = relativeSpan(ms, now);
    return {
      relative: new Intl.RelativeTimeFormat(language, { numeric: 'auto' }).format(span.value, span.unit),
      absolute: absoluteTime(ms, language, zone),
      zone: zoneLabel(zone, ms),
    };
  };
  let text: string;
  let color: 'gray' | 'amber' | 'red' = 'gray';
  if (!Number.isNaN(opens) && opens > now) text = t('judging.portal.opens', describe(opens));
  else if (!Number.isNaN(closes) && closes > now) {
    text = t('judging.portal.deadline', describe(closes));
    if (closes - now < 2 * 86_400_000) color = 'amber';
  } else if (!Number.isNaN(closes)) {
    text = t('judging.portal.deadline_passed', describe(closes));
    color = 'red';
  } else return null;
  return (
    <Text size="1" color={color} data-testid="exam-deadline">
      {text}
    </Text>
  );
}
