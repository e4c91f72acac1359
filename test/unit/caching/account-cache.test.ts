import { describe, expect, it } from 'vitest';
import { AccountCache } from '../../../core/caching/account-cache.js';
import type { ChangeFeed, ChangeListener, ChangeTopic } from '../../../core/caching/change-feed.js';

/** A feed the test drives: live or not, and announcing what it is told (to one topic or to all). */
function testFeed() {
  const listeners: { topic: ChangeTopic; listener: ChangeListener }[] = [];
  const feed: ChangeFeed & { live: boolean; announce: (accountId: string | null, topic?: ChangeTopic) => void } = {
    live: true,
    subscribe: (topic, listener) => void listeners.push({ topic, listener }),
    caughtUp: async () => feed.live,
    announce: (accountId, topic) => listeners.filter((l) => topic === undefined || l.topic === topic).forEach(({ listener }) => listener(accountId)),
  };
  return feed;
}

/** A loader that counts its calls and answers `value()` at that time. */
function counting<V>(value: () => V) {
  const loader = async () => {
    loader.calls++;
    return value();
  };
  loader.calls = 0;
  return loader;
}

describe('AccountCache', () => {
  const options = { ttlMs: 60_000, maxEntries: 100 };

  it('answers from memory while the feed has caught up, and loads every time while it cannot', async () => {
    const feed = testFeed();
    const cache = new AccountCache<string>(feed, 'custom_attributes', options);
    const load = counting(() => 'v1');
    expect([await cache.get('a', 'site', load), await cache.get('a', 'site', load)]).toEqual(['v1', 'v1']);
    expect(load.calls).toBe(1);
    feed.live = false;
    await cache.get('a', 'site', load);
    await cache.get('a', 'site', load);
    expect(load.calls).toBe(3);
  });

  it('forgets an account when the feed announces a change to it, and everything when changes may have been missed', async () => {
    const feed = testFeed();
    const cache = new AccountCache<string>(feed, 'custom_attributes', options);
    let version = 1;
    const a = counting(() => `a${version}`);
    const b = counting(() => `b${version}`);
    await cache.get('a', 'site', a);
    await cache.get('b', 'site', b);
    version = 2;
    feed.announce('a');
    expect([await cache.get('a', 'site', a), await cache.get('b', 'site', b)]).toEqual(['a2', 'b1']);
    feed.announce(null);
    expect([await cache.get('a', 'site', a), await cache.get('b', 'site', b)]).toEqual(['a2', 'b2']);
    expect([a.calls, b.calls]).toEqual([3, 2]);
  });

  it('does not keep what a load read when a change was announced while it ran', async () => {
    const feed = testFeed();
    const cache = new AccountCache<string>(feed, 'custom_attributes', options);
    let release!: () => void;
    let loading!: () => void;
    const started = new Promise<void>((resolve) => (loading = resolve));
    const slow = cache.get('a', 'site', () => (loading(), new Promise<string>((resolve) => (release = () => resolve('before the change')))));
    await started;
    feed.announce('a');
    release();
    expect(await slow).toBe('before the change');
    const load = counting(() => 'after the change');
    expect(await cache.get('a', 'site', load)).toBe('after the change');
    expect(load.calls).toBe(1);
  });

  it('keeps an entry no longer than its time to live, and nothing when that is 0', async () => {
    let now = 0;
    const cache = new AccountCache<number>(testFeed(), 'custom_attributes', { ...options, now: () => now });
    const load = counting(() => now);
    await cache.get('a', 'site', load);
    now = 59_999;
    expect(await cache.get('a', 'site', load)).toBe(0);
    now = 60_000;
    expect(await cache.get('a', 'site', load)).toBe(60_000);
    const uncached = new AccountCache<number>(testFeed(), 'custom_attributes', { ...options, ttlMs: 0 });
    await uncached.get('a', 'site', load);
    await uncached.get('a', 'site', load);
    expect(load.calls).toBe(4);
  });

  it('forgets an account on a change to any of its topics, and none other', async () => {
    const feed = testFeed();
    const cache = new AccountCache<string>(feed, ['sites', 'custom_attributes'], options);
    let version = 1;
    const load = counting(() => `v${version}`);
    await cache.get('a', 'site', load);
    version = 2;
    feed.announce('a', 'meters');
    expect(await cache.get('a', 'site', load)).toBe('v1');
    for (const topic of ['sites', 'custom_attributes'] as const) {
      version++;
      feed.announce('a', topic);
      expect(await cache.get('a', 'site', load)).toBe(`v${version}`);
    }
    expect(load.calls).toBe(3);
  });

  it('answers many keys from memory where it can and loads the others together, keeping what the load found', async () => {
    const feed = testFeed();
    const cache = new AccountCache<string>(feed, 'sites', options);
    const asked: string[][] = [];
    const load = async (missing: readonly string[]) => (asked.push([...missing]), new Map(missing.filter((key) => key !== 'unknown').map((key) => [key, `${key}${asked.length}`])));
    expect([...(await cache.getMany('a', ['x', 'y'], load))]).toEqual([['x', 'x1'], ['y', 'y1']]);
    expect([...(await cache.getMany('a', ['y', 'z', 'unknown', 'x'], load))].sort()).toEqual([['x', 'x1'], ['y', 'y1'], ['z', 'z2']]);
    expect(await cache.get('a', 'z', async () => 'not asked')).toBe('z2');
    expect(asked).toEqual([['x', 'y'], ['z', 'unknown']]);
    feed.announce('a', 'sites');
    expect([...(await cache.getMany('a', ['x'], load))]).toEqual([['x', 'x3']]);
    feed.live = false;
    expect([...(await cache.getMany('a', ['x'], load))]).toEqual([['x', 'x4']]);
  });

  it('answers kept values frozen, so that no caller changes what the next one reads', async () => {
    const cache = new AccountCache<{ name: string; address: { locality: string }; tags: string[] }>(testFeed(), 'sites', options);
    const value = await cache.get('a', 'site', async () => ({ name: 'Haus A', address: { locality: 'Berlin' }, tags: ['x'] }));
    expect(() => (value.address.locality = 'Potsdam')).toThrow(TypeError);
    expect(() => value.tags.push('y')).toThrow(TypeError);
    expect(await cache.get('a', 'site', async () => ({ name: 'other', address: { locality: 'other' }, tags: [] }))).toEqual({ name: 'Haus A', address: { locality: 'Berlin' }, tags: ['x'] });
  });

  it('holds at most maxEntries, dropping the account cached longest ago', async () => {
    const cache = new AccountCache<string>(testFeed(), 'custom_attributes', { ...options, maxEntries: 2 });
    const loads = { a: counting(() => 'a'), b: counting(() => 'b'), c: counting(() => 'c') };
    for (const account of ['a', 'b', 'c'] as const) await cache.get(account, 'site', loads[account]);
    for (const account of ['c', 'b', 'a'] as const) await cache.get(account, 'site', loads[account]);
    expect([loads.a.calls, loads.b.calls, loads.c.calls]).toEqual([2, 1, 1]);
  });
});
