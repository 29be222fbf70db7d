import { describe, expect, it } from 'vitest';
import { CURRENT_PARAMS, generatePassword, hashPassword, needsRehash, verifyPassword } from '../../src/server/auth/password.js';

// A cheap cost keeps most cases fast; one case runs the real cost.
const CHEAP = { N: 2 ** 10, r: 8, p: 1 };

// Full-cost scrypt takes about half a second each, much more on a busy machine.
describe('password hashing', { timeout: 60_000 }, () => {
  it('stores a self-describing scrypt string with a 16-byte salt and 64-byte key', async () => {
    const hash = await hashPassword('correct-horse-battery');
    const [kind, N, r, p, salt, key] = hash.split('$');
    expect(kind).toBe('scrypt');
    expect([Number(N), Number(r), Number(p)]).toEqual([2 ** 17, 8, 1]);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(key!, 'base64url')).toHaveLength(64);
    expect(await verifyPassword('correct-horse-battery', hash)).toBe(true);
    expect(await verifyPassword('correct-horse-batterY', hash)).toBe(false);
  });

  it('salts every hash, so one password gives different hashes', async () => {
    const a = await hashPassword('same-password', CHEAP);
    const b = await hashPassword('same-password', CHEAP);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same-password', a)).toBe(true);
    expect(await verifyPassword('same-password', b)).toBe(true);
  });

  it('answers false for an unknown account after doing the full-cost work', async () => {
    const hash = await hashPassword('the-real-one');
    const time = async (stored: string | null) => {
      const started = performance.now();
      expect(await verifyPassword('wrong', stored)).toBe(false);
      return performance.now() - started;
    };
    // The faster of two runs each, so one scheduling hiccup on a busy machine does not decide it.
    const unknownMs = Math.min(await time(null), await time(null));
    const wrongMs = Math.min(await time(hash), await time(hash));
    // Both run one scrypt at N=2^17: close in time, never an order of magnitude apart.
    expect(unknownMs).toBeGreaterThan(wrongMs / 3);
    expect(unknownMs).toBeLessThan(wrongMs * 3);
  });

  it('answers false for a malformed stored hash', async () => {
    expect(await verifyPassword('x', 'plain-text-password')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$3$8$1$c2FsdA$a2V5')).toBe(false);
  });

  it('asks for a rehash when the stored cost is below the current one', async () => {
    expect(needsRehash(await hashPassword('pw-pw-pw-pw', CHEAP))).toBe(true);
    expect(needsRehash(`scrypt$${CURRENT_PARAMS.N}$8$1$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(64).toString('base64url')}`)).toBe(false);
    expect(needsRehash('garbage')).toBe(true);
  });

  it('generates long random passwords', () => {
    const a = generatePassword();
    expect(a.length).toBeGreaterThanOrEqual(20);
    expect(a).not.toBe(generatePassword());
  });
});
