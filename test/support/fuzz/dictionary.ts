import type { Random } from '../random.ts';

/**
 * Values worth sending, by the field name they belong to: ids, domains and URLs the server itself
 * answered while the run was set up, so generated requests name things that exist and get past
 * "not found" into the code behind it. Filled in the order answers came, capped per name, so a
 * run with the same seed against a fresh server fills it the same way.
 */
export class Dictionary {
  private readonly byName = new Map<string, unknown[]>();
  /** Every field name seen in answers and schemas, for extra fields. */
  readonly names = new Set<string>();
  private readonly cap: number;

  constructor(cap = 24) {
    this.cap = cap;
  }

  add(name: string, value: unknown): void {
    const key = name.toLowerCase();
    let values = this.byName.get(key);
    if (!values) this.byName.set(key, (values = []));
    if (values.length >= this.cap) return;
    const text = JSON.stringify(value);
    if (values.some((v) => JSON.stringify(v) === text)) return;
    values.push(value);
  }

  values(name: string): readonly unknown[] {
    return this.byName.get(name.toLowerCase()) ?? [];
  }

  /** A value known for this field name (or, for a domain or URL field, any domain or URL known), if any fits. */
  pick(random: Random, name: string, fits: (value: unknown) => boolean = () => true): unknown {
    const candidates = [...this.values(name), ...this.related(name)].filter(fits);
    return candidates.length > 0 ? structuredClone(random.pick(candidates)) : undefined;
  }

  private related(name: string): readonly unknown[] {
    const lower = name.toLowerCase();
    if (lower.endsWith('domain') || lower.endsWith('domains'))
      return [...this.values('domain'), ...this.values('publisher_domain')];
    if (lower.endsWith('url') || lower.endsWith('uri') || lower.endsWith('urls'))
      return [...this.values('url'), ...this.values('agent_url')];
    if (lower.endsWith('_ids')) return this.values(lower.slice(0, -1));
    return [];
  }

  /**
   * Takes an answer's values: every short string under its field name, ids listed under `*_ids`
   * under the singular name, and whole objects under names that are references (`format_id`,
   * `account`, `brand`, ...). Bounded in depth and size: answers can be large.
   */
  harvest(value: unknown, objectNames: ReadonlySet<string> = referenceObjects): void {
    let budget = 20_000;
    const stack: Array<{ name: string; value: unknown; depth: number }> = [{ name: '', value, depth: 0 }];
    while (stack.length > 0 && budget-- > 0) {
      const { name, value: v, depth } = stack.pop()!;
      if (depth > 12) continue;
      if (typeof v === 'string') {
        if (name && v.length > 0 && v.length <= 200) this.add(name, v);
      } else if (typeof v === 'number' || typeof v === 'boolean') {
        if (name) this.add(name, v);
      } else if (Array.isArray(v)) {
        const itemName = name.endsWith('_ids') ? name.slice(0, -1) : name;
        for (const item of v.slice(0, 50)) stack.push({ name: itemName, value: item, depth: depth + 1 });
      } else if (v !== null && typeof v === 'object') {
        if (name && objectNames.has(name)) this.add(name, v);
        for (const [key, child] of Object.entries(v)) {
          this.names.add(key);
          stack.push({ name: key, value: child, depth: depth + 1 });
        }
      }
    }
  }
}

/** Field names whose objects are references to something, worth sending back whole. */
export const referenceObjects: ReadonlySet<string> = new Set([
  'format_id',
  'format_ids',
  'account',
  'brand',
  'deployment',
  'deployments',
  'destination',
  'destinations',
  'signal_id',
  'creative_manifest',
  'pricing_option',
  'packages',
  'identifiers',
  'property_ids',
]);
