/**
 * A map of at most `capacity` entries that forgets the oldest one. Looking up does not reorder
 * (which would cost more than the lookup): a cache that is often full is too small anyway.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    if (this.entries.size >= this.capacity && !this.entries.has(key)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }

  /** The value for `key`, computed and remembered on a miss. */
  getOrSet(key: string, compute: () => V): V {
    let value = this.get(key);
    if (value === undefined) {
      value = compute();
      this.set(key, value);
    }
    return value;
  }
}
