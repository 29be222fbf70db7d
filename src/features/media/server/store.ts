import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { AwsClient } from 'aws4fetch';
import type { MediaStoreSettings } from './settings.js';

/** A stored file's bytes, as a stream, with its length. */
export interface StoredFile {
  stream: Readable;
  size: number;
}

/**
 * Where media bytes live. Keys are relative (`2026/11/<uuid>.png`); the database keeps them. Every
 * implementation takes a finished local file (`putFile`: the upload was streamed there, checked and
 * hashed first) or a small buffer (thumbnails, the demo's images).
 */
export interface MediaStore {
  readonly kind: 'fs' | 's3';
  /** A folder on the server's own disk for uploads in progress. */
  readonly tempDir: string;
  /** Moves (or copies) a local file under `key`; the local file is gone afterwards. */
  putFile(key: string, file: string, size: number, type: string): Promise<void>;
  putBuffer(key: string, bytes: Buffer, type: string): Promise<void>;
  /** The bytes under `key`; throws when there are none. */
  get(key: string): Promise<StoredFile>;
  /** Removes `key`; nothing when it does not exist. */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

/** A key's safety: relative, forward slashes, no `..`. */
function checkKey(key: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(key) || key.includes('..')) throw new Error(`Unsafe media key "${key}".`);
  return key;
}

/** Media in a folder of the server's disk (the data directory's `media` by default). */
export class FsMediaStore implements MediaStore {
  readonly kind = 'fs' as const;
  readonly tempDir: string;

  constructor(
    readonly dir: string,
    private readonly temporary = false,
  ) {
    this.tempDir = path.join(dir, '.uploading');
  }

  async init(): Promise<this> {
    await fsp.mkdir(this.tempDir, { recursive: true });
    // Uploads a stopped server left half-written.
    for (const name of await fsp.readdir(this.tempDir)) await fsp.rm(path.join(this.tempDir, name), { force: true });
    return this;
  }

  private pathOf(key: string): string {
    return path.join(this.dir, checkKey(key));
  }

  async putFile(key: string, file: string, _size: number, _type: string): Promise<void> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    try {
      await fsp.rename(file, target);
    } catch {
      await fsp.copyFile(file, target);
      await fsp.rm(file, { force: true });
    }
  }

  async putBuffer(key: string, bytes: Buffer, _type: string): Promise<void> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const temp = path.join(this.tempDir, randomUUID());
    await fsp.writeFile(temp, bytes);
    await fsp.rename(temp, target);
  }

  async get(key: string): Promise<StoredFile> {
    const file = this.pathOf(key);
    const stat = await fsp.stat(file);
    return { stream: fs.createReadStream(file), size: stat.size };
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async close(): Promise<void> {
    if (this.temporary) await fsp.rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * Media in an S3-compatible bucket (path-style requests signed with AWS Signature V4 by aws4fetch:
 * AWS S3, MinIO, Ceph, R2...). Uploads are first streamed to a local temporary folder, then sent
 * with their length (S3 refuses a PUT of unknown length).
 */
export class S3MediaStore implements MediaStore {
  readonly kind = 's3' as const;
  readonly tempDir = path.join(os.tmpdir(), `awards-media-uploading-${process.pid}-${randomUUID().slice(0, 8)}`);
  private readonly client: AwsClient;

  constructor(private readonly settings: Extract<MediaStoreSettings, { kind: 's3' }>) {
    this.client = new AwsClient({
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      region: settings.region,
      service: 's3',
    });
  }

  async init(): Promise<this> {
    await fsp.mkdir(this.tempDir, { recursive: true });
    return this;
  }

  private urlOf(key: string): string {
    const objectKey = `${this.settings.prefix}${checkKey(key)}`.split('/').map(encodeURIComponent).join('/');
    return `${this.settings.endpoint}/${encodeURIComponent(this.settings.bucket)}/${objectKey}`;
  }

  private async send(method: string, key: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}): Promise<Response> {
    const request = await this.client.sign(this.urlOf(key), {
      method,
      headers: { ...init.headers, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      ...(init.body ? { body: init.body } : {}),
    });
    return fetch(request, init.body ? ({ duplex: 'half' } as RequestInit) : {});
  }

  private async put(key: string, body: BodyInit, size: number, type: string): Promise<void> {
    const response = await this.send('PUT', key, { body, headers: { 'content-type': type, 'content-length': String(size) } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`The media bucket refused ${key}: HTTP ${response.status}.`);
  }

  async putFile(key: string, file: string, size: number, type: string): Promise<void> {
    try {
      await this.put(key, Readable.toWeb(fs.createReadStream(file)) as ReadableStream, size, type);
    } finally {
      await fsp.rm(file, { force: true });
    }
  }

  async putBuffer(key: string, bytes: Buffer, type: string): Promise<void> {
    await this.put(key, new Uint8Array(bytes), bytes.length, type);
  }

  async get(key: string): Promise<StoredFile> {
    const response = await this.send('GET', key);
    if (!response.ok || !response.body) {
      await response.arrayBuffer().catch(() => undefined);
      throw new Error(`The media bucket has no ${key}: HTTP ${response.status}.`);
    }
    return { stream: Readable.fromWeb(response.body as never), size: Number(response.headers.get('content-length') ?? 0) };
  }

  async delete(key: string): Promise<void> {
    const response = await this.send('DELETE', key);
    await response.arrayBuffer();
    if (!response.ok && response.status !== 404) throw new Error(`The media bucket did not delete ${key}: HTTP ${response.status}.`);
  }

  async close(): Promise<void> {
    await fsp.rm(this.tempDir, { recursive: true, force: true });
  }
}

/** The store the settings name, ready to use. */
export async function openMediaStore(settings: MediaStoreSettings): Promise<MediaStore> {
  return settings.kind === 'fs' ? new FsMediaStore(settings.dir, settings.temporary).init() : new S3MediaStore(settings).init();
}
