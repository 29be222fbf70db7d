import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { makeRefreshToken, newSessionId, parseRefreshToken, refreshKeyFrom, signAccessToken, verifyAccessToken } from '../../src/server/auth/tokens.js';

const key = new Uint8Array(randomBytes(48));
const claims = { userId: 7, sid: newSessionId(), email: 'a@example.com', name: 'A', role: 'admin' };
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('access tokens', () => {
  it('round-trips the claims of a signed token', async () => {
    expect(await verifyAccessToken(key, await signAccessToken(key, claims))).toEqual(claims);
  });

  it('rejects a token signed with another key', async () => {
    const other = new Uint8Array(randomBytes(48));
    expect(await verifyAccessToken(key, await signAccessToken(other, claims))).toBeNull();
  });

  it('rejects an expired token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ sid: claims.sid, email: claims.email, name: claims.name, role: 'admin', typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('7')
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(key);
    expect(await verifyAccessToken(key, token)).toBeNull();
  });

  it('rejects alg none and other algorithms', async () => {
    const payload = b64({ sub: '7', sid: claims.sid, email: claims.email, name: 'A', role: 'admin', typ: 'access', iat: 1, exp: 9999999999 });
    expect(await verifyAccessToken(key, `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`)).toBeNull();
    const hs512 = await new SignJWT({ sid: claims.sid, email: 'a@example.com', name: 'A', role: 'admin', typ: 'access' })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('7')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    expect(await verifyAccessToken(key, hs512)).toBeNull();
  });

  it('rejects a token that is not an access token', async () => {
    const other = await new SignJWT({ sid: claims.sid, email: 'a@example.com', name: 'A', role: 'admin', typ: 'refresh' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('7')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    expect(await verifyAccessToken(key, other)).toBeNull();
    expect(await verifyAccessToken(key, 'not.a.jwt')).toBeNull();
  });
});

describe('refresh tokens', () => {
  const refreshKey = refreshKeyFrom(key);

  it('round-trips session id and generation', () => {
    const token = makeRefreshToken(refreshKey, claims.sid, 3);
    expect(parseRefreshToken(refreshKey, token)).toEqual({ sid: claims.sid, generation: 3 });
  });

  it('rejects a changed generation, session or MAC, and another key', () => {
    const token = makeRefreshToken(refreshKey, claims.sid, 3);
    const [sid, , mac] = token.split('.');
    expect(parseRefreshToken(refreshKey, `${sid}.4.${mac}`)).toBeNull();
    expect(parseRefreshToken(refreshKey, `${newSessionId()}.3.${mac}`)).toBeNull();
    expect(parseRefreshToken(refreshKey, `${token}x`)).toBeNull();
    expect(parseRefreshToken(refreshKeyFrom(new Uint8Array(randomBytes(48))), token)).toBeNull();
    expect(parseRefreshToken(refreshKey, 'a.b')).toBeNull();
  });

  it('derives a MAC key distinct from the JWT key', () => {
    expect(Buffer.from(refreshKey).equals(Buffer.from(key).subarray(0, 32))).toBe(false);
  });

  it('never accepts an access token as a refresh token', async () => {
    expect(parseRefreshToken(refreshKey, await signAccessToken(key, claims))).toBeNull();
  });
});
