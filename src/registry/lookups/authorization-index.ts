import { covers, type Coverage } from './coverage.ts';
import { Outcome, type CoverageLike } from './decision-table.ts';
import { normalizeIdentifier } from './identifiers.ts';
import type {
  IndexedCollection,
  IndexedGrant,
  IndexedProperty,
  IndexedPublisher,
  PropertyRef,
} from './index-records.ts';
import { distributionKey, IndexStore, none, type PlacedProperty, type PublisherNode } from './index-store.ts';

/**
 * The authorization graph in memory, in both directions: identifier → properties → publisher →
 * grants, and agent → grants → publishers. Its records and the feed events that change them are
 * the store's (index-store.ts); this class answers from them. Reads never wait and never do I/O. A
 * check costs one lookup by identifier value and small maps after it: records point at each other
 * instead of being found again by composite string keys.
 */
export class AuthorizationIndex extends IndexStore {
  /**
   * The check's decision (decision-table.ts) for the best candidate property: `outcome + 16 *
   * (property number + 1)`, no property being -1. Numbers, so a check allocates nothing.
   */
  decide(agent: string, ref: PropertyRef, claimed: string | undefined): number {
    const table = this.table;
    if ('identifier' in ref) {
      const { type, value } = ref.identifier;
      const normalized = normalizeIdentifier(type, value);
      const decision = table.decideIdentifier(type, normalized, agent, claimed, this.coversNumbered);
      if (decision >= 0) return decision;
      // A domain that is itself a known publisher: its file is known and declares no such property.
      const isDomain = type === 'domain' || type === 'subdomain';
      return isDomain && table.knownPublisher(normalized) >= 0
        ? Outcome.PropertyNotFound
        : Outcome.PublisherFileUnknown;
    }
    const publisher = table.knownPublisher(ref.publisher_domain);
    if (publisher < 0) return Outcome.PublisherFileUnknown;
    const decision = table.decidePropertyId(publisher, ref.property_id, agent, claimed, this.coversNumbered);
    return decision >= 0 ? decision : Outcome.PropertyNotFound;
  }

  /** The property a decision names. */
  propertyNumbered(n: number): IndexedProperty {
    return this.byNumber[n]!;
  }

  private readonly coversNumbered = (c: CoverageLike, n: number): boolean => covers(c as Coverage, this.byNumber[n]!);

  publisher(domain: string): IndexedPublisher | undefined {
    return this.nodes.get(domain)?.file;
  }

  /** The adagents.json state of the publisher declaring `property`. */
  publisherOf(property: IndexedProperty): IndexedPublisher | undefined {
    return this.nodeOf(property)?.file;
  }

  /** Whether the adagents.json declaring `property` failed its last re-crawl. */
  publisherStale(property: IndexedProperty): boolean {
    return this.nodeOf(property)?.stale ?? false;
  }

  property(rid: string): IndexedProperty | undefined {
    return this.properties.get(rid);
  }

  /** Every property the index holds, in the order learnt (the index's own records: do not change them). */
  allProperties(): IterableIterator<IndexedProperty> {
    return this.properties.values();
  }

  grant(id: string): IndexedGrant | undefined {
    return this.grants.get(id);
  }

  /** The properties answering to an identifier (the index's own list: do not change it). */
  propertiesByIdentifier(type: string, value: string): readonly IndexedProperty[] {
    const found = this.byIdentifier.get(type)?.get(normalizeIdentifier(type, value));
    return found === undefined ? none : Array.isArray(found) ? found : [found];
  }

  propertyById(publisher: string, propertyId: string): IndexedProperty | undefined {
    return this.nodes.get(publisher)?.byPropertyId.get(propertyId);
  }

  propertiesOfPublisher(publisher: string): IndexedProperty[] {
    const node = this.nodes.get(publisher);
    return node ? [...node.properties.values()] : [];
  }

  collectionsOfPublisher(publisher: string): IndexedCollection[] {
    const node = this.nodes.get(publisher);
    return node ? [...node.collections.values()] : [];
  }

  /**
   * A property's number, dense from 0 to below `propertySlots`, so a reader visiting many can
   * mark them in an array instead of a set.
   */
  numberOf(property: IndexedProperty): number {
    return (property as Partial<PlacedProperty>).number ?? this.properties.get(property.rid)?.number ?? -1;
  }

  get propertySlots(): number {
    return this.byNumber.length;
  }

  /** Whether another property has carried one of this property's identifiers (see PlacedProperty). */
  sharesIdentifier(property: IndexedProperty): boolean {
    return (property as Partial<PlacedProperty>).sharesIdentifier === true;
  }

  /** Every collection the index holds, removed ones included. */
  allCollections(): IterableIterator<IndexedCollection> {
    return this.collections.values();
  }

  /** The collections distributed under a platform identifier (core/collection-distribution.json). */
  collectionsByDistribution(type: string, value: string): readonly IndexedCollection[] {
    const found = this.collectionsByDistributionId.get(distributionKey(type, value));
    return found ? [...found] : none;
  }

  /** What of the agent's grants covers this property (any delegation). */
  coveragesOf(agent: string, property: IndexedProperty): Coverage[] {
    const found = this.nodeOf(property)?.get(agent);
    if (found === undefined) return [];
    if (!Array.isArray(found)) return covers(found, property) ? [found] : [];
    return found.filter((c) => covers(c, property));
  }

  /** Agents with any grant reaching this publisher's properties. */
  agentsAt(publisher: string): string[] {
    const node = this.nodes.get(publisher);
    return node ? [...node.keys()] : [];
  }

  /** Every grant of `agent` reaching `publisher`, with what it covers there. */
  coveragesAt(publisher: string, agent: string): readonly Coverage[] {
    return this.nodes.get(publisher)?.coverages(agent) ?? none;
  }

  /** Every agent holding a grant. */
  agents(): IterableIterator<string> {
    return this.grantsOfAgent.keys();
  }

  grantsOf(agent: string): IndexedGrant[] {
    return [...(this.grantsOfAgent.get(agent) ?? [])];
  }

  get size(): { publishers: number; properties: number; grants: number } {
    return { publishers: this.filed.size, properties: this.properties.size, grants: this.grants.size };
  }

  // Reads for the publisher views (registry/publishers, registry/stats); none is on a check's path.

  /** Every domain whose adagents.json the index holds (active or stale), in byte order. */
  publisherDomains(): readonly string[] {
    return this.filed.all();
  }

  /** The grants a domain's own adagents.json declares (a manager's file serving it included). */
  grantsDeclaredBy(domain: string): IndexedGrant[] {
    return [...(this.grantsBySource.get(domain) ?? [])];
  }

  /** A publisher's counts, without listing its properties. */
  publisherCounts(domain: string): {
    properties: number;
    staleProperties: number;
    collections: number;
    authorizations: number;
    agents: number;
  } {
    const node = this.nodes.get(domain);
    const declared = this.grantsBySource.get(domain);
    const agents = new Set<string>();
    for (const grant of declared ?? []) agents.add(grant.agent);
    let collections = 0;
    for (const c of node?.collections.values() ?? []) if (!c.removed) collections++;
    return {
      properties: node?.properties.size ?? 0,
      staleProperties: node?.staleProperties ?? 0,
      collections,
      authorizations: declared?.size ?? 0,
      agents: agents.size,
    };
  }

  /** Registry-wide counts, kept as the index changes. */
  totals(): {
    publishers: number;
    stalePublishers: number;
    properties: number;
    staleProperties: number;
    collections: number;
    authorizations: number;
    agents: number;
  } {
    return {
      publishers: this.filed.size,
      stalePublishers: this.tally.stalePublishers,
      properties: this.properties.size,
      staleProperties: this.tally.staleProperties,
      collections: this.collections.size - this.tally.removedCollections,
      authorizations: this.grants.size,
      agents: this.grantsOfAgent.size,
    };
  }

  /** Properties this index handed out carry their node; any other is looked up. */
  private nodeOf(property: IndexedProperty): PublisherNode | undefined {
    return (property as Partial<PlacedProperty>).node ?? this.nodes.get(property.publisher);
  }
}
