/** A part of a scope: a font's name, a size, a width in points. */
export type ScopePart = string | number | boolean;

type Level<V> = Map<ScopePart, Level<V> | V>;

/**
 * A map of at most `capacity` entries keyed by a scope (a few parts, as many for every entry) and a
 * text, which forgets everything when full. Rendering looks up every text of a document several
 * times: a key made by joining scope and text is a new string each time, which the map must flatten
 * and hash in full (and a width must first be printed as decimals), while a text looked up again (a
 * label, or an amount measured before it is drawn) carries its hash already and numbers hash as they
 * are. Starting afresh costs the recurring entries one computation each, once per some hundred
 * documents.
 */
export class ScopedCache<V> {
  private readonly root: Level<V> = new Map();
  private count = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.count;
  }

  get(scope: readonly ScopePart[], text: string): V | undefined {
    return this.entries(scope, false)?.get(text) as V | undefined;
  }

  set(scope: readonly ScopePart[], text: string, value: V): void {
    if (this.count >= this.capacity && !this.entries(scope, false)?.has(text)) {
      this.root.clear();
      this.count = 0;
    }
    const entries = this.entries(scope, true)!;
    if (!entries.has(text)) this.count++;
    entries.set(text, value);
  }

  /** The value for `text` in `scope`, computed and remembered on a miss. */
  getOrSet(scope: readonly ScopePart[], text: string, compute: () => V): V {
    let value = this.get(scope, text);
    if (value === undefined) {
      value = compute();
      this.set(scope, text, value);
    }
    return value;
  }

  private entries(scope: readonly ScopePart[], create: boolean): Level<V> | undefined {
    let level = this.root;
    for (const part of scope) {
      let next = level.get(part) as Level<V> | undefined;
      if (!next) {
        if (!create) return undefined;
        level.set(part, (next = new Map()));
      }
      level = next;
    }
    return level;
  }
}
