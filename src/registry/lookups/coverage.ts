import type { IndexedGrant, IndexedProperty } from './index-records.ts';

/** What one grant covers of one target publisher, compiled so a check tests membership, not a list. */
export interface Coverage {
  grant: IndexedGrant;
  /** The grant's, here so a check need not visit the grant to match the claimed delegation. */
  delegationType: string | null;
  all: boolean;
  propertyIds: ReadonlySet<string> | null;
  tags: ReadonlySet<string> | null;
  rids: ReadonlySet<string> | null;
}

export function covers(c: Omit<Coverage, 'grant' | 'delegationType'>, property: IndexedProperty): boolean {
  if (c.all) return true;
  if (c.rids?.has(property.rid)) return true;
  if (c.propertyIds && property.propertyId !== null && c.propertyIds.has(property.propertyId)) return true;
  if (c.tags) for (const tag of property.tags) if (c.tags.has(tag)) return true;
  return false;
}

/** A grant's scopes grouped by target publisher. Signal scopes cover no property. */
export function coverageByTarget(grant: IndexedGrant): Map<string, Coverage> {
  const byTarget = new Map<string, { all: boolean; ids: string[]; tags: string[]; rids: string[] }>();
  for (const s of grant.scopes) {
    if (s.kind === 'signal_id' || s.kind === 'signal_tag') continue;
    let t = byTarget.get(s.target_publisher);
    if (!t) byTarget.set(s.target_publisher, (t = { all: false, ids: [], tags: [], rids: [] }));
    if (s.kind === 'all') t.all = true;
    else if (s.kind === 'property_id') t.ids.push(s.value);
    else if (s.kind === 'tag') t.tags.push(s.value);
    else if (s.kind === 'rid') t.rids.push(s.value);
  }
  const out = new Map<string, Coverage>();
  const set = (values: string[]) => (values.length > 0 ? new Set(values) : null);
  for (const [target, t] of byTarget)
    out.set(target, {
      grant,
      delegationType: grant.delegationType,
      all: t.all,
      propertyIds: set(t.ids),
      tags: set(t.tags),
      rids: set(t.rids),
    });
  return out;
}
