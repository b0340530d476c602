/**
 * One shared copy of each repeated value the index holds. Feed payloads arrive parsed from JSON,
 * so the same publisher domain, agent URL, tag or operator declaration comes as a fresh string or
 * object in every event; at a million properties the copies alone would fill gigabytes. Sharing
 * them also makes a check's comparisons cheap (one hashed string, one object).
 *
 * The pools only grow: they hold distinct values ever seen (domains, agent URLs, tags, operator
 * declarations), a set that changes slowly next to the graph it describes.
 */
export class Interner {
  private readonly strings = new Map<string, string>();
  private readonly lists = new Map<string, readonly unknown[]>();
  private readonly objects = new Map<string, unknown>();

  string(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }

  /** The shared copy of a list of already-interned strings (or shared objects, keyed by `keyOf`). */
  list<T>(values: readonly T[], keyOf: (value: T) => string = String): readonly T[] {
    if (values.length === 0) return empty as readonly T[];
    const key = values.map(keyOf).join('\u0001');
    const known = this.lists.get(key);
    if (known !== undefined) return known as readonly T[];
    this.lists.set(key, values);
    return values;
  }

  /** The shared copy of an object whose identity is `key` (built from its interned fields). */
  object<T>(key: string, make: () => T): T {
    const known = this.objects.get(key);
    if (known !== undefined) return known as T;
    const made = make();
    this.objects.set(key, made);
    return made;
  }
}

const empty: readonly unknown[] = Object.freeze([]);
