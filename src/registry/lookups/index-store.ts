import { coverageByTarget, type Coverage } from './coverage.ts';
import { DecisionTable } from './decision-table.ts';
import { normalizedIdentifiers } from './identifiers.ts';
import {
  collectionFrom,
  grantFrom,
  propertyFrom,
  publisherFrom,
  type IndexedCollection,
  type IndexedGrant,
  type IndexedProperty,
  type IndexedPublisher,
} from './index-records.ts';
import { Interner } from './interner.ts';
import { addOneOrMany, addToSetOf, deleteFromSetOf, keepOneOrMany, type OneOrMany } from './multimaps.ts';
import { SortedDomains } from './sorted-domains.ts';

type Json = Record<string, unknown>;

export const none: readonly never[] = Object.freeze([]);

/**
 * Everything the index knows under one publisher domain: its adagents.json state, its properties
 * and collections, and what each agent's grants cover of it (grants from its own file or from a
 * manager's). A node exists while any of these does.
 *
 * The node is itself the map from canonical agent to coverage, and holds a single coverage without
 * a list around it: at a million properties every object a check visits is a cache miss, so the
 * check's path (property → node → coverage) is kept to as few objects as it can be.
 */
export class PublisherNode extends Map<string, OneOrMany<Coverage>> {
  file: IndexedPublisher | undefined = undefined;
  /** The file's, here so a check need not visit the file. */
  stale = false;
  /** How many of `properties` are stale, kept as they change so a listing need not count. */
  staleProperties = 0;
  /** rid → property, in the order learnt. */
  readonly properties = new Map<string, PlacedProperty>();
  readonly byPropertyId = new Map<string, PlacedProperty>();
  readonly collections = new Map<string, IndexedCollection>();

  readonly domain: string;
  /** The node's number in the decision table. */
  readonly number: number;

  constructor(domain: string, number: number) {
    super();
    this.domain = domain;
    this.number = number;
  }

  coverages(agent: string): readonly Coverage[] {
    const found = this.get(agent);
    return found === undefined ? none : Array.isArray(found) ? found : [found];
  }
}

/** A property as the index holds it: with its publisher's node, so a check goes straight there. */
export interface PlacedProperty extends IndexedProperty {
  readonly node: PublisherNode;
  /** Its number in the decision table. */
  readonly number: number;
  /**
   * Set once another property has carried one of its identifiers (never cleared: a stale true
   * only costs a reader a check), so a reader listing identifiers dedups only these properties'.
   */
  sharesIdentifier?: true;
}

/** Whether the index reads events of this type (`apply`); every other type passes it by. */
export function indexReads(eventType: string): boolean {
  return indexedEvents.test(eventType);
}

const indexedEvents = /^(property|authorization|publisher|collection)\./;

/**
 * The authorization graph's records as the index holds them, and how feed events change them: it
 * changes only by `apply` (a feed event or a snapshot item, each carrying the entity's whole new
 * state), so applying the same state twice is harmless. Every write keeps the decision table in
 * step with the records. What is asked of them is `AuthorizationIndex`'s (authorization-index.ts).
 */
export class IndexStore {
  private readonly intern = new Interner();
  protected readonly nodes = new Map<string, PublisherNode>();
  protected readonly properties = new Map<string, PlacedProperty>();
  protected readonly collections = new Map<string, IndexedCollection>();
  /** distribution identifier (`type\u0000value`) → the collections distributed under it. */
  protected readonly collectionsByDistributionId = new Map<string, Set<IndexedCollection>>();
  protected readonly grants = new Map<string, IndexedGrant>();
  /** identifier type → normalized value → the property, or the properties when several share it (rare). */
  protected readonly byIdentifier = new Map<string, Map<string, OneOrMany<PlacedProperty>>>();
  /** canonical agent → its grants. */
  protected readonly grantsOfAgent = new Map<string, Set<IndexedGrant>>();
  /** The check's decision on numbers, kept in step with the records above. */
  protected readonly table = new DecisionTable();
  protected readonly byNumber: Array<PlacedProperty | undefined> = [];
  private readonly propertyNumbers = new Numbers();
  private readonly nodeNumbers = new Numbers();
  /** Beside the check's structures, for the publisher views: domains with a file, in order. */
  protected readonly filed = new SortedDomains();
  /** Whose adagents.json declares each grant: source domain → its grants. */
  protected readonly grantsBySource = new Map<string, Set<IndexedGrant>>();
  protected readonly tally = { stalePublishers: 0, staleProperties: 0, removedCollections: 0 };

  /** Moves on every apply, so what is derived from the index knows when to derive again. */
  version = 0;

  /**
   * Publisher domains and agents whose part of the graph changed since `takeTouched` last ran, so
   * what is derived per agent (inventory profiles) is derived again for those alone. Bounded by
   * the number of publishers and agents known.
   */
  private touchedPublishers = new Set<string>();
  private touchedAgents = new Set<string>();

  takeTouched(): { publishers: ReadonlySet<string>; agents: ReadonlySet<string> } {
    const touched = { publishers: this.touchedPublishers, agents: this.touchedAgents };
    this.touchedPublishers = new Set();
    this.touchedAgents = new Set();
    return touched;
  }

  /**
   * Applies one feed event (by type) or snapshot item (by entity type, as its latest state). A
   * payload its reader cannot read, or an event of another type, changes nothing.
   */
  apply(kind: string, payload: Json): void {
    this.version++;
    switch (kind) {
      case 'property':
      case 'property.created':
      case 'property.updated':
      case 'property.reactivated':
        return this.putProperty(propertyFrom(payload, this.intern));
      case 'property.stale':
        return this.markPropertyStale(text(payload['property_rid']));
      case 'property.merged':
        return this.removeProperty(text(payload['alias_rid']));
      case 'authorization':
      case 'authorization.granted':
      case 'authorization.modified':
        return this.putGrant(grantFrom(payload, this.intern));
      case 'authorization.revoked':
        return this.removeGrant(text(payload['id']));
      case 'publisher':
      case 'publisher.adagents_discovered':
      case 'publisher.adagents_changed':
        return this.putPublisher(publisherFrom(payload, this.intern, (domain) => this.nodes.get(domain)?.file));
      case 'collection':
      case 'collection.created':
      case 'collection.updated':
      case 'collection.removed':
        return this.putCollection(collectionFrom(payload, this.intern));
      case 'collection.merged':
        return this.removeCollection(text(payload['alias_rid']));
      default:
    }
  }

  private node(domain: string): PublisherNode {
    let node = this.nodes.get(domain);
    if (!node) {
      node = new PublisherNode(domain, this.nodeNumbers.take());
      this.nodes.set(domain, node);
      this.table.setPublisher(node.number, domain, false, false);
    }
    return node;
  }

  /** Forgets a node once nothing is known under its domain. */
  private prune(node: PublisherNode): void {
    if (!node.file && node.properties.size === 0 && node.collections.size === 0 && node.size === 0) {
      this.nodes.delete(node.domain);
      this.table.forgetPublisher(node.number, node.domain);
      this.nodeNumbers.give(node.number);
    }
  }

  private putPublisher(publisher: IndexedPublisher | undefined): void {
    if (!publisher) return;
    this.touchedPublishers.add(publisher.domain);
    const node = this.node(publisher.domain);
    if (node.file?.stale) this.tally.stalePublishers--;
    if (publisher.stale) this.tally.stalePublishers++;
    node.file = publisher;
    this.filed.add(node.domain);
    node.stale = publisher.stale;
    this.table.setPublisher(node.number, node.domain, true, node.stale);
  }

  private putProperty(record: IndexedProperty | undefined): void {
    if (!record) return;
    this.removeProperty(record.rid);
    const node = this.node(record.publisher);
    this.touchedPublishers.add(record.publisher);
    const normalized = normalizedIdentifiers(record);
    const property: PlacedProperty = { ...record, node, number: this.propertyNumbers.take() };
    this.properties.set(property.rid, property);
    this.byNumber[property.number] = property;
    this.table.setProperty(property.number, node.number, property, normalized);
    for (const { type, value } of normalized) {
      let values = this.byIdentifier.get(type);
      if (!values) this.byIdentifier.set(type, (values = new Map()));
      const known = values.get(value);
      if (known !== undefined) {
        property.sharesIdentifier = true;
        for (const other of Array.isArray(known) ? known : [known]) other.sharesIdentifier = true;
      }
      addOneOrMany(values, value, property);
    }
    node.properties.set(property.rid, property);
    if (property.propertyId !== null) node.byPropertyId.set(property.propertyId, property);
    if (property.stale) {
      node.staleProperties++;
      this.tally.staleProperties++;
    }
  }

  private markPropertyStale(rid: string | undefined): void {
    const existing = rid === undefined ? undefined : this.properties.get(rid);
    if (existing) this.putProperty({ ...existing, stale: true });
  }

  private removeProperty(rid: string | undefined): void {
    const old = rid === undefined ? undefined : this.properties.get(rid);
    if (!old) return;
    this.properties.delete(old.rid);
    this.touchedPublishers.add(old.publisher);
    const normalized = normalizedIdentifiers(old);
    this.table.forgetProperty(old.number, old.node.number, old, normalized);
    this.byNumber[old.number] = undefined;
    this.propertyNumbers.give(old.number);
    for (const { type, value } of normalized) {
      const values = this.byIdentifier.get(type);
      if (values) keepOneOrMany(values, value, (p) => p !== old);
    }
    const node = old.node;
    node.properties.delete(old.rid);
    if (old.stale) {
      node.staleProperties--;
      this.tally.staleProperties--;
    }
    if (old.propertyId !== null && node.byPropertyId.get(old.propertyId) === old)
      node.byPropertyId.delete(old.propertyId);
    this.prune(node);
  }

  private putGrant(grant: IndexedGrant | undefined): void {
    if (!grant) return;
    this.removeGrant(grant.id);
    this.grants.set(grant.id, grant);
    this.touchedAgents.add(grant.agent);
    addToSetOf(this.grantsBySource, grant.source, grant);
    addToSetOf(this.grantsOfAgent, grant.agent, grant);
    for (const [target, coverage] of coverageByTarget(grant)) {
      const node = this.node(target);
      addOneOrMany(node, grant.agent, coverage);
      this.table.setCoverage(node.number, this.table.agentNumber(grant.agent), node.coverages(grant.agent));
    }
  }

  private removeGrant(id: string | undefined): void {
    const old = id === undefined ? undefined : this.grants.get(id);
    if (!old) return;
    this.grants.delete(old.id);
    this.touchedAgents.add(old.agent);
    deleteFromSetOf(this.grantsBySource, old.source, old);
    deleteFromSetOf(this.grantsOfAgent, old.agent, old);
    for (const target of new Set(old.scopes.map((s) => s.target_publisher))) {
      const node = this.nodes.get(target);
      if (!node) continue;
      const rest = keepOneOrMany(node, old.agent, (c) => c.grant !== old);
      this.table.setCoverage(node.number, this.table.agentNumber(old.agent), rest);
      this.prune(node);
    }
  }

  private putCollection(collection: IndexedCollection | undefined): void {
    if (!collection) return;
    this.removeCollection(collection.rid);
    this.collections.set(collection.rid, collection);
    for (const id of collection.distributionIds)
      addToSetOf(this.collectionsByDistributionId, distributionKey(id.type, id.value), collection);
    if (collection.removed) this.tally.removedCollections++;
    this.node(collection.publisher).collections.set(collection.rid, collection);
  }

  private removeCollection(rid: string | undefined): void {
    const old = rid === undefined ? undefined : this.collections.get(rid);
    if (!old) return;
    this.collections.delete(old.rid);
    for (const id of old.distributionIds)
      deleteFromSetOf(this.collectionsByDistributionId, distributionKey(id.type, id.value), old);
    if (old.removed) this.tally.removedCollections--;
    const node = this.nodes.get(old.publisher);
    if (!node) return;
    node.collections.delete(old.rid);
    this.prune(node);
  }
}

/** A distribution identifier as collections are found by it: a domain in any case, other platforms' ids as given. */
export const distributionKey = (type: string, value: string): string =>
  `${type}\u0000${type === 'domain' ? value.toLowerCase() : value}`;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Small integers handed out and given back, so a table indexed by them stays dense. */
class Numbers {
  private next = 0;
  private readonly free: number[] = [];

  take(): number {
    return this.free.pop() ?? this.next++;
  }

  give(n: number): void {
    this.free.push(n);
  }
}
