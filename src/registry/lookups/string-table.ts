/**
 * A hash table from (kind, owner number, text) to an int32, laid out in typed arrays: a slot is four
 * int32s in one cache line's quarter, and the keys' characters sit in one arena. At a million keys a
 * lookup is then two memory reads the processor has not cached (the slot, the key's characters),
 * where a `Map` of strings makes four or five (bucket, entry, key string, value object); on a
 * machine with that many objects each such read is a few hundred nanoseconds. Removal leaves a
 * tombstone; the table rebuilds itself (compacting the arena) when tombstones and keys fill it.
 */
export class StringTable {
  /** Per slot: hash, value, arena offset of the text (-1 empty, -2 removed), kind << 24 | owner. */
  private slots: Int32Array;
  private mask: number;
  /** Each key's text: its length, then its UTF-16 code units. */
  private arena: Uint16Array;
  private arenaUsed = 0;
  private live = 0;
  private removed = 0;

  constructor(capacity = 1024) {
    this.slots = emptySlots(capacity);
    this.mask = capacity - 1;
    this.arena = new Uint16Array(capacity * 8);
  }

  get size(): number {
    return this.live;
  }

  /** The value under the key, or -1. */
  get(kind: number, owner: number, text: string): number {
    const slot = this.find(kind, owner, text, hashOf(kind, owner, text));
    return slot < 0 ? -1 : this.slots[slot * 4 + 1]!;
  }

  set(kind: number, owner: number, text: string, value: number): void {
    const hash = hashOf(kind, owner, text);
    const found = this.find(kind, owner, text, hash);
    if (found >= 0) {
      this.slots[found * 4 + 1] = value;
      return;
    }
    if ((this.live + this.removed + 1) * 2 > this.mask + 1) this.rebuild();
    this.place(hash, value, this.store(text), tagOf(kind, owner));
    this.live++;
  }

  delete(kind: number, owner: number, text: string): void {
    const slot = this.find(kind, owner, text, hashOf(kind, owner, text));
    if (slot < 0) return;
    this.slots[slot * 4 + 2] = REMOVED;
    this.live--;
    this.removed++;
  }

  private find(kind: number, owner: number, text: string, hash: number): number {
    const { slots, mask, arena } = this;
    const tag = tagOf(kind, owner);
    const length = text.length;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = slot * 4;
      const offset = slots[at + 2]!;
      if (offset === EMPTY) return -1;
      if (offset >= 0 && slots[at]! === hash && slots[at + 3]! === tag && arena[offset]! === (length & 0xffff) && arena[offset + 1]! === length >>> 16) {
        let i = 0;
        while (i < length && arena[offset + 2 + i] === text.charCodeAt(i)) i++;
        if (i === length) return slot;
      }
    }
  }

  private place(hash: number, value: number, offset: number, tag: number): void {
    const { slots, mask } = this;
    let slot = hash & mask;
    while (slots[slot * 4 + 2]! !== EMPTY) slot = (slot + 1) & mask;
    slots.set([hash, value, offset, tag], slot * 4);
  }

  private store(text: string): number {
    const needed = this.arenaUsed + text.length + 2;
    if (needed > this.arena.length) {
      const grown = new Uint16Array(Math.max(needed, this.arena.length * 2));
      grown.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = grown;
    }
    const offset = this.arenaUsed;
    this.arena[offset] = text.length & 0xffff;
    this.arena[offset + 1] = text.length >>> 16;
    for (let i = 0; i < text.length; i++) this.arena[offset + 2 + i] = text.charCodeAt(i);
    this.arenaUsed = needed;
    return offset;
  }

  /** Re-places every live key in a table sized for twice as many, copying their texts to a fresh arena. */
  private rebuild(): void {
    const old = this.slots;
    const oldArena = this.arena;
    let capacity = 1024;
    while (capacity < (this.live + 1) * 3) capacity *= 2;
    this.slots = emptySlots(capacity);
    this.mask = capacity - 1;
    this.arena = new Uint16Array(Math.max(1024, this.arenaUsed));
    this.arenaUsed = 0;
    this.removed = 0;
    for (let at = 0; at < old.length; at += 4) {
      const offset = old[at + 2]!;
      if (offset < 0) continue;
      const length = oldArena[offset]! | (oldArena[offset + 1]! << 16);
      const copy = this.arenaUsed;
      this.arena.set(oldArena.subarray(offset, offset + 2 + length), copy);
      this.arenaUsed += length + 2;
      this.place(old[at]!, old[at + 1]!, copy, old[at + 3]!);
    }
  }
}

const EMPTY = -1;
const REMOVED = -2;

function emptySlots(capacity: number): Int32Array {
  const slots = new Int32Array(capacity * 4);
  for (let at = 2; at < slots.length; at += 4) slots[at] = EMPTY;
  return slots;
}

/** Kinds are small (< 128) and owners below 2^24: a key's tag is one int32. */
const tagOf = (kind: number, owner: number): number => (kind << 24) | owner;

/** FNV-1a over the tag and the text's code units, then murmur3's finalizer to spread the low bits. */
export function hashOf(kind: number, owner: number, text: string): number {
  let h = Math.imul(0x811c9dc5 ^ tagOf(kind, owner), 0x01000193);
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
