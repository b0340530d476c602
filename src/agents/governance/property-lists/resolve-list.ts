import { covers, type AuthorizationIndex, type IndexedProperty } from '../../../registry/lookups/index.ts';

export interface Identifier {
  type: string;
  value: string;
}

/** property/base-property-source.json: a publisher's properties by tag or id, or identifiers anywhere. */
export type BasePropertySource =
  | { selection_type: 'publisher_tags'; publisher_domain: string; tags: string[] }
  | { selection_type: 'publisher_ids'; publisher_domain: string; property_ids: string[] }
  | { selection_type: 'identifiers'; identifiers: Identifier[] };

/** What a list says of its members (create-property-list-request.json's `base_properties` and `filters`). */
export interface PropertyListDefinition {
  base_properties?: BasePropertySource[];
  filters?: { property_types?: string[]; exclude_identifiers?: Identifier[] };
}

/**
 * The registry's properties a list holds now, read from the authorization index in memory: the
 * properties its sources name (every property when it names none), of the filtered types, less
 * the excluded identifiers, and only those a buyer can still buy: the publisher's file is not
 * stale and some agent is authorized for the property. So a property leaves every list the moment
 * the index learns it went stale or lost its last authorization. Each property is visited once,
 * through the index's own maps (by publisher, by identifier): the work is the candidates', never
 * a scan of the index unless the list names no source.
 */
export function resolveList(index: AuthorizationIndex, list: PropertyListDefinition): IndexedProperty[] {
  const types = list.filters?.property_types?.length ? new Set(list.filters.property_types) : undefined;
  const excluded = new Set((list.filters?.exclude_identifiers ?? []).map(identifierKey));
  const members: IndexedProperty[] = [];
  // Marked by number, not kept in a set: at 100,000 members the set's growth is most of the work.
  const seen = new Uint8Array(index.propertySlots);
  // Each publisher's grants, asked once per publisher, not once per property.
  const grantsAt = new Map<string, ReturnType<AuthorizationIndex['coveragesAt']>[]>();
  const authorized = (property: IndexedProperty) => {
    let grants = grantsAt.get(property.publisher);
    if (!grants)
      grantsAt.set(
        property.publisher,
        (grants = index.agentsAt(property.publisher).map((agent) => index.coveragesAt(property.publisher, agent))),
      );
    return grants.some((coverages) => coverages.some((c) => covers(c, property)));
  };
  const consider = (property: IndexedProperty) => {
    const number = index.numberOf(property);
    if (number < 0 || seen[number] === 1) return;
    seen[number] = 1;
    if (types && !types.has(property.type)) return;
    if (excluded.size > 0 && property.identifiers.some((i) => excluded.has(identifierKey(i)))) return;
    if (property.stale || index.publisherStale(property) || !authorized(property)) return;
    members.push(property);
  };
  const sources = list.base_properties;
  if (!sources?.length) for (const property of index.allProperties()) consider(property);
  else for (const source of sources) for (const property of candidates(index, source)) consider(property);
  return members;
}

/**
 * The identifiers a list answers, each once, in member order: the index's own objects (it holds
 * them normalized), compared only for the properties the index says share one.
 */
export function identifiersOf(index: AuthorizationIndex, members: readonly IndexedProperty[]): Identifier[] {
  const shared = new Set<string>();
  const out: Identifier[] = [];
  for (const property of members) {
    if (!index.sharesIdentifier(property)) {
      for (const identifier of property.identifiers) out.push(identifier);
      continue;
    }
    for (const identifier of property.identifiers) {
      const key = `${identifier.type}\u0000${identifier.value}`;
      if (shared.has(key)) continue;
      shared.add(key);
      out.push(identifier);
    }
  }
  return out;
}

function candidates(index: AuthorizationIndex, source: BasePropertySource): Iterable<IndexedProperty> {
  switch (source.selection_type) {
    case 'publisher_tags': {
      const tags = new Set(source.tags);
      return index.propertiesOfPublisher(source.publisher_domain).filter((p) => p.tags.some((t) => tags.has(t)));
    }
    case 'publisher_ids':
      return source.property_ids.flatMap((id) => index.propertyById(source.publisher_domain, id) ?? []);
    case 'identifiers':
      return source.identifiers.flatMap((i) => index.propertiesByIdentifier(i.type, i.value));
  }
}

function identifierKey(identifier: Identifier): string {
  return `${identifier.type}\u0000${identifier.value.toLowerCase()}`;
}
