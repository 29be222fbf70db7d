import { formatDateTime as formatIn } from '../../shared/format.js';

/**
 * A long, localised date and time in the reader's time zone with the zone's name ('21 November 2026
 * pukul 13.05 WIB'), or null when absent/unparsable: the shared rule of src/shared/format.ts.
 */
export function formatDateTime(value: string | null | undefined, language: string): string | null {
  return formatIn(value, language);
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
