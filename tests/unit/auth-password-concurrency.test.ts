import { afterEach, describe, expect, it, vi } from 'vitest';

describe('password hashing concurrency', () => {
  afterEach(() => {
    vi.doUnmock('node:crypto');
    vi.resetModules();
  });

  it('runs at most two scrypt computations at once and finishes every one', async () => {
    let active = 0;
    let peak = 0;
    vi.resetModules();
    vi.doMock('node:crypto', async (importOriginal) => {
      const real = await importOriginal<typeof import('node:crypto')>();
      return {
        ...real,
        scrypt: (_password: string, _salt: Buffer, keylen: number, _options: unknown, callback: (error: Error | null, key: Buffer) => void) => {
          active++;
          peak = Math.max(peak, active);
          setTimeout(() => {
            active--;
            callback(null, Buffer.alloc(keylen, 1));
          }, 20);
        },
      };
    });
    const { hashPassword } = await import('../../src/server/auth/password.js');
    const hashes = await Promise.all(Array.from({ length: 6 }, (_, i) => hashPassword(`password-${i}`)));
    expect(hashes).toHaveLength(6);
    expect(peak).toBe(2);
  });
});
