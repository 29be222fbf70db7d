/** Media's shared face: the wire types of `/api/media`. */

/** A stored file the caller may see, with links an `<img>` can load (signed, valid 10 to 15 minutes). */
export interface MediaItem {
  id: number;
  /** `image/png`, `image/jpeg`, `image/gif`, `image/webp` or `application/pdf`, read from the content. */
  type: string;
  /** Bytes. */
  size: number;
  /** An image's size in pixels; null for a PDF. */
  width: number | null;
  height: number | null;
  /** The uploaded file's name, as given (shown, never used to decide anything). */
  name: string | null;
  /** The entry it belongs to; null until it is tied to one. */
  contest_id: number | null;
  /** What a form field stores: `/api/media/<id>`. */
  value: string;
  /** The file, signed for the caller. */
  url: string;
  /** An image's thumbnail (WebP, at most 480 px a side), signed; null for a PDF. */
  thumbnail_url: string | null;
  created_at: string;
}

/**
 * What `GET /api/media/links` answers, to every role (jurors too): a file's item without the entry it
 * belongs to, so a juror learns no entry's id (its identity beyond the blind code) from a file.
 */
export type MediaLink = Omit<MediaItem, 'contest_id'>;

/** `POST /api/media` (admins and entrants) → `{ data: MediaItem }`; `GET /api/media/links?ids=1,2` → `{ data: MediaLink[] }`. */
export interface MediaAnswer {
  data: MediaItem;
}
export interface MediaListAnswer {
  data: MediaLink[];
}

/** The value the `media-upload` widget stores: `/api/media/<id>`. */
export const MEDIA_VALUE_PREFIX = '/api/media/';

/** The media id of a stored value (`/api/media/42` → 42), else null. */
export function mediaIdOfValue(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^\/api\/media\/(\d{1,12})$/.exec(value.trim());
  return match ? Number(match[1]) : null;
}
