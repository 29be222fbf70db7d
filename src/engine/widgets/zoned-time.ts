/**
 * Wall-clock time in a named time zone, for the date-time widget and the screens that show a
 * deadline: the API stores an instant as ISO UTC (`2026-12-01T03:00:00.000Z`), a person reads and
 * types it in their own zone (`2026-12-01T10:00` in Asia/Jakarta). Pure, on `Intl` only.
 */

/** The browser's (the user's) IANA time zone, `UTC` when the runtime names none. */
export function userTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallParts(zone: string, ms: number): Record<string, number> {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(ms))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return parts;
}

/** The zone's offset from UTC at the instant `ms`, in minutes (Asia/Jakarta: 420). */
export function zoneOffsetMinutes(zone: string, ms: number): number {
  const p = wallParts(zone, ms);
  const asUtc = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** 'UTC+7', 'UTC+5:30', 'UTC-3', 'UTC' for an offset in minutes. */
export function offsetLabel(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  const rest = abs % 60;
  return `UTC${sign}${Math.floor(abs / 60)}${rest ? `:${String(rest).padStart(2, '0')}` : ''}`;
}

/** The zone as a person reads it: 'Asia/Jakarta, UTC+7' (the offset at `ms`, now by default), plain 'UTC' for UTC itself. */
export function zoneLabel(zone: string, ms: number = Date.now()): string {
  const offset = offsetLabel(zoneOffsetMinutes(zone, ms));
  return zone === offset || zone === 'Etc/UTC' ? offset : `${zone}, ${offset}`;
}

/** An ISO instant as a `datetime-local` value in `zone` (`2026-12-01T10:00`), '' when empty or unparsable. */
export function toZonedInput(iso: unknown, zone: string): string {
  if (typeof iso !== 'string' || iso.trim() === '') return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const p = wallParts(zone, ms);
  const pad = (n: number | undefined, width = 2) => String(n ?? 0).padStart(width, '0');
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/**
 * A `datetime-local` value read in `zone` as an ISO UTC instant (`2026-12-01T10:00` in Asia/Jakarta →
 * `2026-12-01T03:00:00.000Z`); `undefined` for an empty or incomplete value. A wall time a DST change
 * skips resolves to the offset before the change.
 */
export function fromZonedInput(local: string, zone: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const wall = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, Number.isNaN(s) ? 0 : (s ?? 0));
  let ms = wall - zoneOffsetMinutes(zone, wall) * 60_000;
  // The offset at the guessed instant may differ (a DST edge): one correction settles it.
  ms = wall - zoneOffsetMinutes(zone, ms) * 60_000;
  return new Date(ms).toISOString();
}
