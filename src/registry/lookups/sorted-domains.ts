/**
 * Domains in order, for keyset pages. Added domains wait in a buffer and are merged in when the
 * order is next read: loading a snapshot adds every publisher before anyone reads, so the list is
 * sorted once (not shifted once per insert), and a publisher discovered later costs one merge on
 * the next read. Domains are ASCII (punycode), so `<` is byte order, the order PostgreSQL's
 * `collate "C"` and the cursor agree on.
 */
export class SortedDomains {
  private sorted: string[] = [];
  private readonly added: string[] = [];
  private readonly members = new Set<string>();

  add(domain: string): void {
    if (this.members.has(domain)) return;
    this.members.add(domain);
    this.added.push(domain);
  }

  has(domain: string): boolean {
    return this.members.has(domain);
  }

  get size(): number {
    return this.members.size;
  }

  /** Every domain, in order (the list itself: do not change it). */
  all(): readonly string[] {
    if (this.added.length > 0) this.merge();
    return this.sorted;
  }

  private merge(): void {
    const added = this.added.splice(0).sort(compare);
    const old = this.sorted;
    if (old.length === 0 || compare(old.at(-1)!, added[0]!) < 0) {
      this.sorted = old.length === 0 ? added : old.concat(added);
      return;
    }
    const out = new Array<string>(old.length + added.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < old.length && j < added.length) out[k++] = compare(old[i]!, added[j]!) <= 0 ? old[i++]! : added[j++]!;
    while (i < old.length) out[k++] = old[i++]!;
    while (j < added.length) out[k++] = added[j++]!;
    this.sorted = out;
  }
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The position of the first of `sorted` after `after` (binary search). */
export function firstAfter<T>(sorted: readonly T[], after: T, order: (a: T, b: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order(sorted[mid]!, after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
