import type { ChangeFeed, ChangeTopic } from './change-feed.js';

export interface AccountCacheOptions {
  /** Kept at most this long even without a change (a bound should a notification ever be lost). */
  ttlMs: number;
  /** Entries over all accounts; when full, the account cached longest ago is dropped. */
  maxEntries: number;
  now?: () => number;
}

interface Entry<V> {
  value: V;
  expires: number;
}

/** Freezes `value` and everything it holds, so that no caller can change what the next one is answered. */
function deepFreeze<V>(value: V): V {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Values read per account and key, forgotten when `feed` announces a change to one of `topics`
 * for the account (or may have missed one). Values are frozen when kept: many requests share one.
 * A value is answered from memory only after the feed has caught up with every change committed
 * before the question (or before the request's earlier one, see ChangeFeed.caughtUp), so a
 * request never sees less than a database read at its start would show. A read that began before
 * a change and ends after it must not store what it read: every change moves `version`, and a
 * load stores its value only when the version did not move while it ran.
 */
export class AccountCache<V> {
  private readonly accounts = new Map<string, Map<string, Entry<V>>>();
  private size = 0;
  private version = 0;
  private readonly now: () => number;

  constructor(
    private readonly feed: ChangeFeed,
    topics: ChangeTopic | readonly ChangeTopic[],
    private readonly options: AccountCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
    for (const topic of typeof topics === 'string' ? [topics] : topics) {
      feed.subscribe(topic, (accountId) => (accountId === null ? this.clear() : this.forget(accountId)));
    }
  }

  async get(accountId: string, key: string, load: () => Promise<V>): Promise<V> {
    return (await this.getMany(accountId, [key], async () => new Map([[key, await load()]]))).get(key)!;
  }

  /** The values of `keys` kept in memory, and what `load` finds of the others (it may find fewer). */
  async getMany(accountId: string, keys: readonly string[], load: (missing: readonly string[]) => Promise<ReadonlyMap<string, V>>): Promise<Map<string, V>> {
    if (this.options.ttlMs <= 0 || !(await this.feed.caughtUp())) return new Map(await load(keys));
    const entries = this.accounts.get(accountId);
    const now = this.now();
    const found = new Map<string, V>();
    const missing: string[] = [];
    for (const key of keys) {
      const entry = entries?.get(key);
      if (entry && entry.expires > now) found.set(key, entry.value);
      else missing.push(key);
    }
    if (missing.length === 0) return found;
    const version = this.version;
    const loaded = await load(missing);
    const keep = version === this.version && this.feed.live;
    for (const [key, value] of loaded) {
      if (keep) this.store(accountId, key, value);
      found.set(key, value);
    }
    return found;
  }

  private store(accountId: string, key: string, value: V): void {
    while (this.size >= this.options.maxEntries && this.accounts.size > 0) this.drop(this.accounts.keys().next().value!);
    let entries = this.accounts.get(accountId);
    if (!entries) {
      entries = new Map();
      this.accounts.set(accountId, entries);
    }
    if (!entries.has(key)) this.size++;
    entries.set(key, { value: deepFreeze(value), expires: this.now() + this.options.ttlMs });
  }

  private forget(accountId: string): void {
    this.version++;
    this.drop(accountId);
  }

  private drop(accountId: string): void {
    this.size -= this.accounts.get(accountId)?.size ?? 0;
    this.accounts.delete(accountId);
  }

  private clear(): void {
    this.version++;
    this.accounts.clear();
    this.size = 0;
  }
}
