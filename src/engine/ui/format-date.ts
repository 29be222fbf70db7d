import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import 'dayjs/locale/id';
import 'dayjs/locale/ms';

dayjs.extend(localizedFormat);

/** A long, localised date and time ('21 November 2026 13:05' in ms), or null when absent/unparsable. */
export function formatDateTime(value: string | null | undefined, language: string): string | null {
  if (!value) return null;
  const date = dayjs(value);
  return date.isValid() ? date.locale(language).format('LLL') : null;
}

/** Milliseconds as m:ss, or h:mm:ss from an hour up; never negative. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}
