import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { createRegistry } from '../../src/server/operations/context.js';
import { dependencyTables, ListCache, listCacheKey } from '../../src/server/operations/list-cache.js';
import { loadConfiguredEntities } from '../../src/server/plugins/entities.js';

describe('ListCache', () => {
  it('returns a body only for the version it was stored at, and forgets it once the version moved on', () => {
    const cache = new ListCache(10_000);
    cache.set('k', '7', '{"data":[]}');
    expect(cache.get('k', '7')).toBe('{"data":[]}');
    expect(cache.get('k', '8')).toBeUndefined();
    expect(cache.get('k', '7')).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('stays within its size, dropping the least recently used entry first', () => {
    const body = 'x'.repeat(90);
    const cache = new ListCache(400);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, '1', body);
    expect(cache.size).toBe(4);
    cache.get('a', '1');
    cache.set('e', '1', body);
    expect(cache.bytes).toBeLessThanOrEqual(400);
    expect(cache.get('b', '1')).toBeUndefined();
    expect(cache.get('a', '1')).toBe(body);
    expect(cache.get('e', '1')).toBe(body);
  });

  it('replaces an entry stored again under the same key without counting it twice', () => {
    const cache = new ListCache(1000);
    cache.set('k', '1', 'old body');
    cache.set('k', '2', 'new body');
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe('k'.length + 'new body'.length);
    expect(cache.get('k', '2')).toBe('new body');
  });

  it('does not keep a body larger than a quarter of its size', () => {
    const cache = new ListCache(100);
    cache.set('k', '1', 'y'.repeat(60));
    expect(cache.get('k', '1')).toBeUndefined();
  });

  it('reads a key at a version once for the requests that come while it reads, and keeps what it read', async () => {
    const cache = new ListCache(10_000);
    let reads = 0;
    let finish!: (body: string) => void;
    const read = () => {
      reads += 1;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const together = [cache.readOnce('k', '1', read), cache.readOnce('k', '1', read)];
    // Another version is another read.
    const other = cache.readOnce('k', '2', async () => {
      reads += 1;
      return 'at 2';
    });
    expect(reads).toBe(2);
    finish('at 1');
    expect(await Promise.all(together)).toEqual(['at 1', 'at 1']);
    expect(await other).toBe('at 2');
    // Kept under the version stored last (the read at 1 ended last); the next read is one of its own.
    expect(cache.get('k', '1')).toBe('at 1');
    expect(await cache.readOnce('k', '1', async () => 'read again')).toBe('read again');
  });

  it('fails every request that waited for a read that failed, keeps nothing and reads again next time', async () => {
    const cache = new ListCache(10_000);
    let fail!: (error: Error) => void;
    const failing = () => new Promise<string>((_, reject) => (fail = reject));
    const together = [cache.readOnce('k', '1', failing), cache.readOnce('k', '1', failing)];
    fail(new Error('stale versions'));
    for (const request of together) await expect(request).rejects.toThrow('stale versions');
    expect(cache.has('k')).toBe(false);
    expect(await cache.readOnce('k', '1', async () => 'fresh')).toBe('fresh');
  });
});

describe('listCacheKey', () => {
  it('ignores the order of the parameters but not their values, the path or the role', () => {
    const key = listCacheKey('/api/contests', 'admin', { page: '1', include: 'customer' });
    expect(listCacheKey('/api/contests', 'admin', { include: 'customer', page: '1' })).toBe(key);
    expect(listCacheKey('/api/contests', 'admin', { include: 'customer', page: '2' })).not.toBe(key);
    expect(listCacheKey('/api/customers', 'admin', { include: 'customer', page: '1' })).not.toBe(key);
    expect(listCacheKey('/api/contests', 'user', { include: 'customer', page: '1' })).not.toBe(key);
  });
});

describe('dependencyTables', () => {
  const registry = createRegistry(loadConfiguredEntities(loadConfig({})));

  it('names every table a contests list reads: its relations and what their computed fields count', () => {
    const tables = dependencyTables(registry.byName.get('contest')!, registry);
    expect(tables).toEqual(expect.arrayContaining(['campaigns', 'categories', 'contests', 'customers']));
    expect(tables).toEqual([...tables].sort());
  });

  it('includes the counted table of a computed field (a campaign’s contest count)', () => {
    expect(dependencyTables(registry.byName.get('campaign')!, registry)).toContain('contests');
  });

  it('is just the table itself for an entity without relations', () => {
    expect(dependencyTables(registry.byName.get('category')!, registry)).toEqual(['categories']);
  });
});
