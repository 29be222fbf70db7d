import { describe, expect, it } from 'vitest';
import { SessionCache } from '../../src/server/auth/session-cache.js';

const live = { live: true, revokedReason: null, userId: 1 };

describe('SessionCache', () => {
  it('keeps an entry for less than its time to live', () => {
    const cache = new SessionCache(1000);
    cache.set('a', live, 0);
    expect(cache.get('a', 999)).toEqual(live);
    expect(cache.get('a', 1000)).toBeUndefined();
  });

  it('forgets deleted entries at once', () => {
    const cache = new SessionCache(1000);
    cache.set('a', live, 0);
    cache.set('b', live, 0);
    cache.delete('a', 'b');
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toBeUndefined();
  });

  it('evicts the oldest entry when full', () => {
    const cache = new SessionCache(1000, 2);
    cache.set('a', live, 0);
    cache.set('b', live, 0);
    cache.set('c', live, 0);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toEqual(live);
    expect(cache.get('c', 1)).toEqual(live);
  });
});
