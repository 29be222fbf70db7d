import os from 'node:os';
import path from 'node:path';

/** Where media files go: a folder, or an S3-compatible bucket. */
export type MediaStoreSettings =
  | { kind: 'fs'; dir: string; temporary: boolean }
  | { kind: 's3'; endpoint: string; bucket: string; prefix: string; region: string; accessKeyId: string; secretAccessKey: string };

/** The media feature's settings, read from the environment. */
export interface MediaSettings {
  store: MediaStoreSettings;
  /** Largest accepted file, in bytes (`MEDIA_MAX_MB`, default 20). */
  maxBytes: number;
  /** Files one entry may hold (`MEDIA_MAX_PER_ENTRY`, default 20). */
  maxPerEntry: number;
  /** Files an account may hold that are not tied to an entry yet (`MEDIA_MAX_UNATTACHED`, default 50). */
  maxUnattached: number;
  /** Largest image decoded for its thumbnail, in pixels (`MEDIA_MAX_PIXELS`, default 40 000 000). */
  maxPixels: number;
}

type Env = Record<string, string | undefined>;

function whole(env: Env, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw new Error(`${key} must be a whole number from ${min} to ${max}; got "${raw}".`);
  return value;
}

/**
 * The store named by `MEDIA_URL`: unset, a folder `media` in the data directory (a temporary folder
 * when the database is in memory); `file:///abs/path` or an absolute path, that folder;
 * `s3://bucket/prefix?endpoint=http://127.0.0.1:9000&region=us-east-1`, a bucket (path-style
 * requests; the keys from `MEDIA_S3_ACCESS_KEY_ID` / `MEDIA_S3_SECRET_ACCESS_KEY`, else
 * `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`).
 */
export function storeSettings(env: Env, dataDir: string): MediaStoreSettings {
  const raw = env.MEDIA_URL?.trim();
  if (!raw) {
    if (dataDir === ':memory:') return { kind: 'fs', dir: path.join(os.tmpdir(), `awards-media-${process.pid}-${Date.now()}`), temporary: true };
    return { kind: 'fs', dir: path.resolve(dataDir, 'media'), temporary: false };
  }
  if (path.isAbsolute(raw)) return { kind: 'fs', dir: raw, temporary: false };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`MEDIA_URL must be file:///folder, an absolute folder or s3://bucket/prefix?endpoint=...; got "${raw}".`);
  }
  if (url.protocol === 'file:') return { kind: 'fs', dir: decodeURIComponent(url.pathname), temporary: false };
  if (url.protocol !== 's3:') throw new Error(`MEDIA_URL must be file:///folder or s3://bucket/prefix; got "${raw}".`);
  const region = url.searchParams.get('region') ?? env.AWS_REGION ?? 'us-east-1';
  const endpoint = (url.searchParams.get('endpoint') ?? `https://s3.${region}.amazonaws.com`).replace(/\/+$/, '');
  const accessKeyId = env.MEDIA_S3_ACCESS_KEY_ID ?? env.AWS_ACCESS_KEY_ID ?? '';
  const secretAccessKey = env.MEDIA_S3_SECRET_ACCESS_KEY ?? env.AWS_SECRET_ACCESS_KEY ?? '';
  if (!url.hostname) throw new Error('MEDIA_URL=s3://… must name a bucket.');
  if (!accessKeyId || !secretAccessKey) throw new Error('MEDIA_URL=s3://… needs MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY.');
  const prefix = url.pathname.replace(/^\/+|\/+$/g, '');
  return { kind: 's3', endpoint, bucket: url.hostname, prefix: prefix ? `${prefix}/` : '', region, accessKeyId, secretAccessKey };
}

/** Every media setting, from the environment. */
export function mediaSettings(env: Env, dataDir: string): MediaSettings {
  return {
    store: storeSettings(env, dataDir),
    maxBytes: whole(env, 'MEDIA_MAX_MB', 20, 1, 2048) * 1024 * 1024,
    maxPerEntry: whole(env, 'MEDIA_MAX_PER_ENTRY', 20, 1, 1000),
    maxUnattached: whole(env, 'MEDIA_MAX_UNATTACHED', 50, 1, 100_000),
    maxPixels: whole(env, 'MEDIA_MAX_PIXELS', 40_000_000, 10_000, 268_402_689),
  };
}
