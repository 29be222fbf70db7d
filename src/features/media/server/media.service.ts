import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Kysely, sql } from 'kysely';
import { AppError, conflict, notFound, writeAudit } from '../../../server/index.js';
import { ADMIN_ROLE, roleDeclaration } from '../../../shared/roles.js';
import { type MediaItem, type MediaLink, mediaIdOfValue } from '../index.js';
import type { MediaSettings } from './settings.js';
import { loadSharp } from './sharp.js';
import { MEDIA_TYPES, SNIFF_BYTES, sniffType } from './sniff.js';
import type { MediaStore } from './store.js';

/** A row of the `media` table. */
export interface MediaRow {
  id: number;
  owner_user_id: number | null;
  contest_id: number | null;
  type: string;
  size: number | string;
  storage_key: string;
  thumbnail_key: string | null;
  width: number | null;
  height: number | null;
  sha256: string;
  original_name: string | null;
  created_at: Date | string;
}

/** Who is asking: the signed-in account's id and role. */
export interface MediaCaller {
  id: number;
  role: string;
}

/** A variant of a stored file: the file itself, or an image's thumbnail. */
export type MediaVariant = 'file' | 'thumb';

/** The longest side of a thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 480;
/** Signed links last from 10 to 15 minutes (their expiry rounded up, so a page's links stay the same a while). */
const LINK_SECONDS = 600;
const LINK_ROUND = 300;

/** The media id an `/api/media/<id>` value (what the upload widget stores) names, else null. */
export const mediaIdOf = mediaIdOfValue;

/** A file name without control characters (it is shown, and goes into the audit). */
function withoutControls(name: string): string {
  return [...name].filter((char) => char.charCodeAt(0) > 0x1f && char.charCodeAt(0) !== 0x7f).join('');
}

const fileError = (status: number, message: string, messageKey: string, params: Record<string, unknown> = {}) =>
  new AppError(status, 'BAD_REQUEST', message, [{ path: 'file', keyword: messageKey.split('.').pop()!, messageKey, params }]);

export const unsupportedType = () =>
  fileError(415, 'The file is not a PNG, JPEG, GIF or WebP image nor a PDF (its content decides, not its name).', 'media.errors.type');
export const tooLarge = (maxBytes: number) =>
  fileError(413, `The file is larger than ${Math.round(maxBytes / 1048576)} MB.`, 'media.errors.too_large', { limit: Math.round(maxBytes / 1048576) });

/**
 * Media: uploads streamed to the store (size-limited, hashed, the type read from the content,
 * images given a thumbnail), who may see a file, signed links for `<img>`, and tying files to an
 * entry.
 */
export class MediaService {
  private readonly linkKey: Buffer;

  constructor(
    readonly db: Kysely<any>,
    readonly store: MediaStore,
    readonly settings: MediaSettings,
    secret: Uint8Array,
  ) {
    this.linkKey = createHmac('sha256', Buffer.from(secret)).update('media-links').digest();
  }

  async find(id: number): Promise<MediaRow | undefined> {
    return (await this.db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst()) as MediaRow | undefined;
  }

  /** The id of the record the caller's role links its accounts to (`users.<column>`), for a link to `entity`. */
  private async linkedRecord(caller: MediaCaller, entity: string): Promise<number | null> {
    const link = roleDeclaration(caller.role)?.link;
    if (!link || link.entity !== entity) return null;
    const row = await sql<{ linked: number | null }>`select ${sql.ref(link.column)} as linked from users where id = ${caller.id}`.execute(this.db);
    const linked = row.rows[0]?.linked;
    return linked === null || linked === undefined ? null : Number(linked);
  }

  /** Whether the caller may write to the entry: an admin, or the entrant whose customer record entered it. */
  async mayWriteEntry(caller: MediaCaller, contestId: number): Promise<boolean> {
    const entry = await sql<{ customer_id: number | null }>`select customer_id from contests where id = ${contestId}`.execute(this.db);
    if (entry.rows.length === 0) return false;
    if (caller.role === ADMIN_ROLE) return true;
    const customer = await this.linkedRecord(caller, 'customer');
    return customer !== null && Number(entry.rows[0]!.customer_id) === customer;
  }

  /**
   * Whether the caller may see the file: admins; the account that uploaded it; once it is tied to
   * an entry, the entrant whose customer record entered it and the jurors assigned to the entry in
   * an exam past its draft (as the jury portal shows it).
   */
  async maySee(caller: MediaCaller, row: MediaRow): Promise<boolean> {
    if (caller.role === ADMIN_ROLE) return true;
    if (row.owner_user_id !== null && Number(row.owner_user_id) === caller.id) return true;
    if (row.contest_id === null) return false;
    const contestId = Number(row.contest_id);
    const juryId = await this.linkedRecord(caller, 'jury');
    if (juryId !== null) {
      const assigned = await sql<{ one: number }>`
        select 1 as one from assignments a join exams e on e.id = a.exam_id
        where a.contest_id = ${contestId} and a.jury_id = ${juryId} and e.status <> 'draft' limit 1`.execute(this.db);
      if (assigned.rows.length > 0) return true;
    }
    const customer = await this.linkedRecord(caller, 'customer');
    if (customer !== null) {
      const owns = await sql<{ one: number }>`select 1 as one from contests where id = ${contestId} and customer_id = ${customer}`.execute(this.db);
      if (owns.rows.length > 0) return true;
    }
    return false;
  }

  /** The file, when it exists and the caller may see it; else a 404 (another's file is not told apart from none). */
  async visible(caller: MediaCaller, id: number): Promise<MediaRow> {
    const row = await this.find(id);
    if (!row || !(await this.maySee(caller, row))) throw notFound('No such file.');
    return row;
  }

  /** Refuses an upload that would pass the count limits (checked before any byte is read). */
  async checkCount(caller: MediaCaller, contestId: number | null): Promise<void> {
    const query = this.db.selectFrom('media').select(sql<string>`count(*)`.as('n'));
    const counted =
      contestId === null
        ? await query.where('owner_user_id', '=', caller.id).where('contest_id', 'is', null).executeTakeFirst()
        : await query.where('contest_id', '=', contestId).executeTakeFirst();
    const n = Number(counted?.n ?? 0);
    const limit = contestId === null ? this.settings.maxUnattached : this.settings.maxPerEntry;
    if (n >= limit) {
      throw conflict(
        contestId === null ? `You have ${n} files not yet part of an entry; the most is ${limit}.` : `This entry already has ${n} files; the most is ${limit}.`,
        [{ path: 'file', keyword: 'count', messageKey: contestId === null ? 'media.errors.too_many_unattached' : 'media.errors.too_many', params: { limit } }],
      );
    }
  }

  /**
   * Stores an upload: streams it to a temporary file while hashing it and reading its type from
   * its first bytes (415 as soon as they are read when it is not an accepted type), stops at the
   * size limit (413), decodes an image once for its size and thumbnail (pixel-limited), then moves
   * it to the store and records it. The whole file is never held in memory.
   */
  async ingest(
    upload: { file: Readable & { truncated?: boolean }; filename?: string },
    caller: MediaCaller,
    contestId: number | null,
    ip: string | null,
  ): Promise<MediaRow> {
    const temp = path.join(this.store.tempDir, randomUUID());
    const state: SniffState = { size: 0, hash: createHash('sha256'), type: undefined };
    try {
      try {
        await pipeline(upload.file, sniffingStream(state), fs.createWriteStream(temp));
      } catch (error) {
        // The rest of the request is read and dropped, so the answer reaches the client.
        upload.file.resume();
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(this.settings.maxBytes);
        throw error;
      }
      if (upload.file.truncated || state.size > this.settings.maxBytes) throw tooLarge(this.settings.maxBytes);
      const type = state.type!;
      const image = type.startsWith('image/') ? await this.thumbnail(temp) : null;
      const now = new Date();
      const key = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}.${MEDIA_TYPES[type]}`;
      await this.store.putFile(key, temp, state.size, type);
      const thumbnailKey = image ? `${key}.thumb.webp` : null;
      if (image) await this.store.putBuffer(thumbnailKey!, image.thumbnail, 'image/webp');
      const name = upload.filename ? withoutControls(upload.filename).slice(0, 255) : null;
      const row = (await this.db
        .insertInto('media')
        .values({
          owner_user_id: caller.id,
          contest_id: contestId,
          type,
          size: state.size,
          storage_key: key,
          thumbnail_key: thumbnailKey,
          width: image?.width ?? null,
          height: image?.height ?? null,
          sha256: state.hash.digest('hex'),
          original_name: name || null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()) as MediaRow;
      await writeAudit(this.db, {
        action: 'media.upload',
        userId: caller.id,
        ip,
        entity: 'media',
        entityId: row.id,
        details: { type, size: state.size, contest_id: contestId, name: row.original_name },
      });
      return row;
    } finally {
      await fsp.rm(temp, { force: true });
    }
  }

  /**
   * An image's size and its thumbnail (WebP, at most {@link THUMBNAIL_SIZE} a side); 413 past the
   * pixel limit, 415 when it does not decode. One decode at a time per server, so parallel uploads
   * hold at most one decoded image (≤ `MEDIA_MAX_PIXELS` × 4 bytes) in memory.
   */
  private thumbnail(file: string): Promise<{ width: number; height: number; thumbnail: Buffer }> {
    const run = this.decoding.then(() => this.decode(file));
    this.decoding = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private decoding: Promise<void> = Promise.resolve();

  private async decode(file: string): Promise<{ width: number; height: number; thumbnail: Buffer }> {
    const limitInputPixels = this.settings.maxPixels;
    const sharp = await loadSharp();
    try {
      const meta = await sharp(file, { limitInputPixels }).metadata();
      const width = meta.autoOrient?.width ?? meta.width ?? 0;
      const height = meta.autoOrient?.height ?? meta.height ?? 0;
      if (width * height > limitInputPixels) throw new Error('Input image exceeds pixel limit');
      const thumbnail = await sharp(file, { limitInputPixels, animated: false })
        .rotate()
        .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 78 })
        .toBuffer();
      return { width, height, thumbnail };
    } catch (error) {
      if (/pixel limit/i.test((error as Error).message)) {
        throw fileError(413, `The image has more than ${limitInputPixels} pixels.`, 'media.errors.pixels', { limit: limitInputPixels });
      }
      throw fileError(415, 'The image could not be read.', 'media.errors.unreadable');
    }
  }

  /** Stores bytes made by the server (the demo's images) as a file of the entry, with its thumbnail; the record through `db` (a transaction). */
  async storeGenerated(bytes: Buffer, contestId: number | null, name: string, db: Kysely<any> = this.db): Promise<MediaRow> {
    const type = await sniffType(bytes.subarray(0, SNIFF_BYTES));
    if (!type) throw unsupportedType();
    const temp = path.join(this.store.tempDir, randomUUID());
    await fsp.writeFile(temp, bytes);
    try {
      const image = type.startsWith('image/') ? await this.thumbnail(temp) : null;
      const key = `demo/${randomUUID()}.${MEDIA_TYPES[type]}`;
      await this.store.putFile(key, temp, bytes.length, type);
      if (image) await this.store.putBuffer(`${key}.thumb.webp`, image.thumbnail, 'image/webp');
      return (await db
        .insertInto('media')
        .values({
          owner_user_id: null,
          contest_id: contestId,
          type,
          size: bytes.length,
          storage_key: key,
          thumbnail_key: image ? `${key}.thumb.webp` : null,
          width: image?.width ?? null,
          height: image?.height ?? null,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          original_name: name,
        })
        .returningAll()
        .executeTakeFirstOrThrow()) as MediaRow;
    } finally {
      await fsp.rm(temp, { force: true });
    }
  }

  /** The bytes of a file or its thumbnail (an image without one, and a PDF, answer their file). */
  async open(row: MediaRow, variant: MediaVariant): Promise<{ stream: Readable; size: number; type: string }> {
    const thumb = variant === 'thumb' && row.thumbnail_key;
    const stored = await this.store.get(thumb ? row.thumbnail_key! : row.storage_key);
    return { ...stored, type: thumb ? 'image/webp' : row.type };
  }

  private signature(id: number, variant: MediaVariant, userId: number, expires: number): string {
    return createHmac('sha256', this.linkKey).update(`${id}.${variant}.${userId}.${expires}`).digest('base64url');
  }

  /** A link an `<img>` can load (it sends no token): signed for the caller, valid 10 to 15 minutes. */
  signedUrl(id: number, variant: MediaVariant, caller: MediaCaller, now = Date.now()): string {
    const expires = Math.ceil(now / 1000 / LINK_ROUND) * LINK_ROUND + LINK_SECONDS;
    return `/api/media/${id}/content?variant=${variant}&user=${caller.id}&expires=${expires}&signature=${this.signature(id, variant, caller.id, expires)}`;
  }

  /** Whether a signed link is genuine and not expired. */
  verify(id: number, variant: MediaVariant, userId: number, expires: number, signature: string, now = Date.now()): boolean {
    if (!Number.isSafeInteger(expires) || expires * 1000 < now) return false;
    const expected = Buffer.from(this.signature(id, variant, userId, expires));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** What the client needs to show a file the caller may see. */
  item(row: MediaRow, caller: MediaCaller): MediaItem {
    return {
      id: Number(row.id),
      type: row.type,
      size: Number(row.size),
      width: row.width === null ? null : Number(row.width),
      height: row.height === null ? null : Number(row.height),
      name: row.original_name,
      contest_id: row.contest_id === null ? null : Number(row.contest_id),
      value: `/api/media/${row.id}`,
      url: this.signedUrl(Number(row.id), 'file', caller),
      thumbnail_url: row.thumbnail_key ? this.signedUrl(Number(row.id), 'thumb', caller) : null,
      created_at: new Date(row.created_at).toISOString(),
    };
  }

  /** The files of `ids` the caller may see (others are left out), without the entry they belong to (jurors ask too). */
  async items(caller: MediaCaller, ids: readonly number[]): Promise<MediaLink[]> {
    if (ids.length === 0) return [];
    const rows = (await this.db
      .selectFrom('media')
      .selectAll()
      .where('id', 'in', [...ids])
      .execute()) as MediaRow[];
    const out: MediaLink[] = [];
    for (const row of rows)
      if (await this.maySee(caller, row)) {
        const { contest_id: _entry, ...link } = this.item(row, caller);
        out.push(link);
      }
    return out;
  }

  /**
   * Ties the files an entry's values name (`/api/media/<id>`) to the entry, when they are not tied
   * yet and were uploaded by `userId` (any account's when null: an admin's or the server's own
   * write). Returns how many were tied.
   */
  async attach(contestId: number, values: readonly unknown[], userId: number | null): Promise<number> {
    return attachEntryMedia(this.db, { contestId, values, userId });
  }

  /** Removes a file and its thumbnail (the record first: a failed store delete leaves bytes, never a dangling record). */
  async remove(row: MediaRow, caller: MediaCaller, ip: string | null): Promise<void> {
    await this.db.deleteFrom('media').where('id', '=', row.id).execute();
    await writeAudit(this.db, {
      action: 'media.delete',
      userId: caller.id,
      ip,
      entity: 'media',
      entityId: row.id,
      details: { type: row.type, size: Number(row.size), contest_id: row.contest_id, name: row.original_name },
    });
    await this.store.delete(row.storage_key);
    if (row.thumbnail_key) await this.store.delete(row.thumbnail_key);
  }
}

/** See {@link MediaService.attach}; usable with any transaction. */
export async function attachEntryMedia(db: Kysely<any>, input: { contestId: number; values: readonly unknown[]; userId: number | null }): Promise<number> {
  const ids = [...new Set(input.values.map(mediaIdOf).filter((id): id is number => id !== null))];
  if (ids.length === 0) return 0;
  let query = db.updateTable('media').set({ contest_id: input.contestId }).where('id', 'in', ids).where('contest_id', 'is', null);
  if (input.userId !== null) query = query.where('owner_user_id', '=', input.userId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}

interface SniffState {
  size: number;
  hash: ReturnType<typeof createHash>;
  type: string | undefined;
}

/**
 * Passes bytes through, counting and hashing them; holds back the first {@link SNIFF_BYTES} until
 * their type is read, and fails with a 415 when it is not one media accepts.
 */
function sniffingStream(state: SniffState): Transform {
  let held: Buffer[] = [];
  let heldLength = 0;
  let sniffed = false;
  const release = async (stream: Transform) => {
    sniffed = true;
    const all = Buffer.concat(held, heldLength);
    held = [];
    state.type = await sniffType(all.subarray(0, SNIFF_BYTES));
    if (!state.type) throw unsupportedType();
    stream.push(all);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      state.hash.update(chunk);
      state.size += chunk.length;
      if (sniffed) return done(null, chunk);
      held.push(chunk);
      heldLength += chunk.length;
      if (heldLength < SNIFF_BYTES) return done();
      release(this).then(() => done(), done);
    },
    flush(done) {
      if (sniffed) return done();
      release(this).then(() => done(), done);
    },
  });
}
