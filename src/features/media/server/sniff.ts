import { fileTypeFromBuffer } from 'file-type';

/** The types media accepts, with the file extension each is stored under. */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

/** Bytes read from a file's start to tell its type. */
export const SNIFF_BYTES = 4100;

/**
 * The file's type read from its first bytes (magic numbers, by `file-type`), when it is one media
 * accepts; undefined otherwise. The name and the declared type are never believed: an HTML page
 * named `.png` is no image.
 */
export async function sniffType(head: Uint8Array): Promise<string | undefined> {
  if (head.length === 0) return undefined;
  const found = await fileTypeFromBuffer(head);
  return found && MEDIA_TYPES[found.mime] ? found.mime : undefined;
}
