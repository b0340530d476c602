/**
 * A hash table from a pair of non-negative int32s to a pair of int32s, in one typed array (a slot
 * is four int32s: the key, then the value), so a lookup reads one cache line. Removal leaves a
 * tombstone; the table rebuilds itself when tombstones and keys fill 70% of it.
 */
export class PairTable {
  /** Per slot: first key + 1 (0 empty, -1 removed), second key, the two values. */
  private slots: Int32Array;
  private mask: number;
  private live = 0;
  private removed = 0;

  constructor(capacity = 1024) {
    this.slots = new Int32Array(capacity * 4);
    this.mask = capacity - 1;
  }

  /** Where the pair's values are in `values`, or -1. */
  find(a: number, b: number): number {
    const { slots, mask } = this;
    for (let slot = mix(a, b) & mask; ; slot = (slot + 1) & mask) {
      const at = slot * 4;
      const first = slots[at]!;
      if (first === 0) return -1;
      if (first === a + 1 && slots[at + 1] === b) return at + 2;
    }
  }

  get values(): Int32Array {
    return this.slots;
  }

  set(a: number, b: number, v0: number, v1: number): void {
    let at = this.find(a, b);
    if (at < 0) {
      if ((this.live + this.removed + 1) * 10 > (this.mask + 1) * 7) this.rebuild();
      at = this.place(a, b);
      this.live++;
    }
    this.slots[at] = v0;
    this.slots[at + 1] = v1;
  }

  delete(a: number, b: number): void {
    const at = this.find(a, b);
    if (at < 0) return;
    this.slots[at - 2] = -1;
    this.live--;
    this.removed++;
  }

  /** Claims a free slot for the pair; returns where its values go. */
  private place(a: number, b: number): number {
    const { slots, mask } = this;
    let slot = mix(a, b) & mask;
    while (slots[slot * 4]! > 0 || slots[slot * 4]! === -1) slot = (slot + 1) & mask;
    slots[slot * 4] = a + 1;
    slots[slot * 4 + 1] = b;
    return slot * 4 + 2;
  }

  private rebuild(): void {
    const old = this.slots;
    let capacity = 1024;
    while (capacity < (this.live + 1) * 2) capacity *= 2;
    this.slots = new Int32Array(capacity * 4);
    this.mask = capacity - 1;
    this.removed = 0;
    for (let at = 0; at < old.length; at += 4) {
      if (old[at]! <= 0) continue;
      const to = this.place(old[at]! - 1, old[at + 1]!);
      this.slots[to] = old[at + 2]!;
      this.slots[to + 1] = old[at + 3]!;
    }
  }
}

function mix(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}
