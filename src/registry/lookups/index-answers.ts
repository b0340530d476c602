import type { AuthorizationIndex } from './authorization-index.ts';

/**
 * Answers computed from one state of the index, kept until the index changes: any event it
 * applies clears them, so an answer is never older than the index it came from. Bounded in
 * entries and in size: the oldest entry goes first, so callers asking ever-new questions cost
 * memory only up to the bound. A capacity of 0 keeps nothing.
 */
export class IndexAnswers<V> {
  private index: AuthorizationIndex | undefined;
  private version = -1;
  private readonly entries = new Map<string, { value: V; size: number }>();
  private size = 0;
  private readonly limits: { entries: number; size?: number; sizeOf?: (value: V, key: string) => number };

  constructor(limits: IndexAnswers<V>['limits']) {
    this.limits = limits;
  }

  /** The answer kept for `key` from this very state of the index, if any. */
  peek(index: AuthorizationIndex, key: string): V | undefined {
    return index === this.index && index.version === this.version ? this.entries.get(key)?.value : undefined;
  }

  get(index: AuthorizationIndex, key: string, compute: () => V): V {
    if (index !== this.index || index.version !== this.version) {
      this.entries.clear();
      this.size = 0;
      this.index = index;
      this.version = index.version;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit.value;
    const value = compute();
    const size = this.limits.sizeOf?.(value, key) ?? 0;
    const maxSize = this.limits.size ?? Infinity;
    if (this.limits.entries === 0 || size > maxSize) return value;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size < this.limits.entries && this.size + size <= maxSize) break;
      this.entries.delete(oldest);
      this.size -= entry.size;
    }
    this.entries.set(key, { value, size });
    this.size += size;
    return value;
  }
}
