/**
 * A least-recently-used map bounded by bytes (and, as a backstop, by entries). Each value's size is measured
 * once, when it is stored, by `sizeOf`; the total never exceeds `maxBytes` after a `set` returns. A value larger
 * than `maxItemBytes` (an eighth of the budget unless told) is not stored at all, so one huge value cannot empty
 * the cache. The caches of the server process (rendered pages, font subsets) are built on it.
 */
export interface ByteLruOptions<K, V> {
  maxBytes: number;
  maxEntries?: number;
  maxItemBytes?: number;
  sizeOf: (value: V, key: K) => number;
}

export class ByteLru<K, V> {
  readonly maxBytes: number;
  readonly maxEntries: number;
  readonly maxItemBytes: number;
  private readonly sizeOf: (value: V, key: K) => number;
  /** Insertion order is recency order: the least recently used entry is the first. */
  private readonly entries = new Map<K, { value: V; bytes: number }>();
  private total = 0;

  constructor(options: ByteLruOptions<K, V>) {
    this.maxBytes = Math.max(0, options.maxBytes);
    this.maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
    this.maxItemBytes = Math.min(options.maxItemBytes ?? this.maxBytes / 8, this.maxBytes);
    this.sizeOf = options.sizeOf;
  }

  /** Bytes held (as measured by sizeOf). */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** The value, without touching its recency. */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Stores the value as the most recently used, evicting the least recently used beyond the bounds. */
  set(key: K, value: V): boolean {
    this.delete(key);
    const bytes = this.sizeOf(value, key);
    if (!(bytes <= this.maxItemBytes) || this.maxEntries < 1) return false;
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    while (this.total > this.maxBytes || this.entries.size > this.maxEntries) {
      this.delete(this.entries.keys().next().value as K);
    }
    return true;
  }

  delete(key: K): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.total -= entry.bytes;
    return true;
  }

  /** Removes every entry the predicate picks (e.g. the expired ones). */
  prune(drop: (value: V, key: K) => boolean): number {
    let n = 0;
    for (const [key, entry] of this.entries) {
      if (drop(entry.value, key)) {
        this.entries.delete(key);
        this.total -= entry.bytes;
        n++;
      }
    }
    return n;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }
}
