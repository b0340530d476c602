/**
 * A hash table from (kind, owner number, text) to an int32 and three more (its payload), laid out
 * in typed arrays: a slot is eight int32s, half a cache line, and the keys' characters sit in one
 * arena. At a million keys a lookup is then two memory reads the processor has not cached (the
 * slot, the key's characters), which need not wait for each other (`next` finds a slot by hash,
 * `holds` confirms it); a `Map` of strings makes four or five in a row (bucket, entry, key string,
 * value object), each a few hundred nanoseconds on a machine holding that many objects. Removal
 * leaves a tombstone; the table rebuilds itself (compacting the arena) when tombstones and keys fill it.
 */
export class StringTable {
  /** Per slot: hash, value, arena offset of the text (-1 empty, -2 removed), kind << 24 | owner, payload ×3, unused. */
  slots: Int32Array;
  private mask: number;
  /** Each key's text: its length (two code units), then its UTF-16 code units. */
  arena: Uint16Array;
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
    const at = this.find(kind, owner, text);
    return at < 0 ? -1 : this.slots[at + 1]!;
  }

  set(kind: number, owner: number, text: string, value: number, p0 = 0, p1 = 0, p2 = 0): void {
    let at = this.find(kind, owner, text);
    if (at < 0) {
      if ((this.live + this.removed + 1) * 10 > (this.mask + 1) * 7) this.rebuild();
      at = this.place(hashOf(kind, owner, text), this.store(text), tagOf(kind, owner));
      this.live++;
    }
    const { slots } = this;
    slots[at + 1] = value;
    slots[at + 4] = p0;
    slots[at + 5] = p1;
    slots[at + 6] = p2;
  }

  delete(kind: number, owner: number, text: string): void {
    const at = this.find(kind, owner, text);
    if (at < 0) return;
    this.slots[at + 2] = REMOVED;
    this.live--;
    this.removed++;
  }

  /** Where in `slots` the key is, or -1. */
  find(kind: number, owner: number, text: string): number {
    const hash = hashOf(kind, owner, text);
    const tag = tagOf(kind, owner);
    for (let at = this.next(hash, tag, -1); at >= 0; at = this.next(hash, tag, at)) if (this.holds(at, text)) return at;
    return -1;
  }

  /** The next slot after `at` (from the start: -1) holding a key with this hash and tag, or -1: a candidate `holds` confirms. */
  next(hash: number, tag: number, at: number): number {
    const { slots, mask } = this;
    for (let slot = at < 0 ? hash & mask : ((at >> 3) + 1) & mask; ; slot = (slot + 1) & mask) {
      const i = slot * 8;
      const offset = slots[i + 2]!;
      if (offset === EMPTY) return -1;
      if (offset >= 0 && slots[i] === hash && slots[i + 3] === tag) return i;
    }
  }

  /** Whether the slot at `at` holds this text. */
  holds(at: number, text: string): boolean {
    const { arena } = this;
    const offset = this.slots[at + 2]!;
    const length = text.length;
    if (arena[offset] !== (length & 0xffff) || arena[offset + 1] !== length >>> 16) return false;
    for (let i = 0; i < length; i++) if (arena[offset + 2 + i] !== text.charCodeAt(i)) return false;
    return true;
  }

  /** Claims the first free slot for a new key; returns where it is in `slots`. */
  private place(hash: number, offset: number, tag: number): number {
    const { slots, mask } = this;
    let slot = hash & mask;
    while (slots[slot * 8 + 2]! !== EMPTY) slot = (slot + 1) & mask;
    const at = slot * 8;
    slots[at] = hash;
    slots[at + 2] = offset;
    slots[at + 3] = tag;
    return at;
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
    while (capacity < (this.live + 1) * 2) capacity *= 2;
    this.slots = emptySlots(capacity);
    this.mask = capacity - 1;
    this.arena = new Uint16Array(Math.max(1024, this.arenaUsed));
    this.arenaUsed = 0;
    this.removed = 0;
    for (let at = 0; at < old.length; at += 8) {
      const offset = old[at + 2]!;
      if (offset < 0) continue;
      const length = oldArena[offset]! | (oldArena[offset + 1]! << 16);
      const copy = this.arenaUsed;
      this.arena.set(oldArena.subarray(offset, offset + 2 + length), copy);
      this.arenaUsed += length + 2;
      const to = this.place(old[at]!, copy, old[at + 3]!);
      this.slots.set(old.subarray(at + 4, at + 8), to + 4);
      this.slots[to + 1] = old[at + 1]!;
    }
  }
}

const EMPTY = -1;
const REMOVED = -2;

function emptySlots(capacity: number): Int32Array {
  const slots = new Int32Array(capacity * 8);
  for (let at = 2; at < slots.length; at += 8) slots[at] = EMPTY;
  return slots;
}

/** Kinds are small (< 128) and owners below 2^24: a key's tag is one int32. */
export const tagOf = (kind: number, owner: number): number => (kind << 24) | owner;

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
