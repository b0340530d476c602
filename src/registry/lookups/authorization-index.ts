import {
  collectionFrom,
  grantFrom,
  propertyFrom,
  publisherFrom,
  type Identifier,
  type IndexedCollection,
  type IndexedGrant,
  type IndexedProperty,
  type IndexedPublisher,
  type PropertyRef,
} from './index-records.ts';
import { DecisionTable, Outcome, type CoverageLike } from './decision-table.ts';
import { Interner } from './interner.ts';
import { SortedDomains } from './sorted-domains.ts';

type Json = Record<string, unknown>;

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

/**
 * Everything the index knows under one publisher domain: its adagents.json state, its properties
 * and collections, and what each agent's grants cover of it (grants from its own file or from a
 * manager's). A node exists while any of these does.
 *
 * The node is itself the map from canonical agent to coverage, and holds a single coverage without
 * a list around it: at a million properties every object a check visits is a cache miss, so the
 * check's path (property → node → coverage) is kept to as few objects as it can be.
 */
class PublisherNode extends Map<string, Coverage | Coverage[]> {
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
interface PlacedProperty extends IndexedProperty {
  readonly node: PublisherNode;
  /** Its number in the decision table. */
  readonly number: number;
}

/**
 * The authorization graph in memory, in both directions: identifier → properties → publisher →
 * grants, and agent → grants → publishers. It changes only by `apply` (a feed event or a snapshot
 * item, each carrying the entity's whole new state), so applying the same state twice is harmless;
 * reads never wait and never do I/O. A check costs one lookup by identifier value and small maps
 * after it: records point at each other instead of being found again by composite string keys.
 */
export class AuthorizationIndex {
  private readonly intern = new Interner();
  private readonly nodes = new Map<string, PublisherNode>();
  private readonly properties = new Map<string, PlacedProperty>();
  private readonly collections = new Map<string, IndexedCollection>();
  private readonly grants = new Map<string, IndexedGrant>();
  /** identifier type → normalized value → the property, or the properties when several share it (rare). */
  private readonly byIdentifier = new Map<string, Map<string, PlacedProperty | PlacedProperty[]>>();
  /** canonical agent → its grants. */
  private readonly grantsOfAgent = new Map<string, Set<IndexedGrant>>();
  /** The check's decision on numbers, kept in step with the records above. */
  private readonly table = new DecisionTable();
  private readonly byNumber: Array<PlacedProperty | undefined> = [];
  private readonly propertyNumbers = new Numbers();
  private readonly nodeNumbers = new Numbers();
  /** Beside the check's structures, for the publisher views: domains with a file, in order. */
  private readonly filed = new SortedDomains();
  /** Whose adagents.json declares each grant: source domain → its grants. */
  private readonly grantsBySource = new Map<string, Set<IndexedGrant>>();
  private readonly tally = { stalePublishers: 0, staleProperties: 0, removedCollections: 0 };

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

  /** Applies one feed event (by type) or snapshot item (by entity type, as its latest state). */
  apply(kind: string, payload: Json): void {
    this.version++;
    switch (kind) {
      case 'property':
      case 'property.created':
      case 'property.updated':
      case 'property.reactivated': {
        const property = propertyFrom(payload, this.intern);
        if (property) this.putProperty(property);
        return;
      }
      case 'property.stale': {
        const rid = payload['property_rid'];
        const existing = typeof rid === 'string' ? this.properties.get(rid) : undefined;
        if (existing) this.putProperty({ ...existing, stale: true });
        return;
      }
      case 'property.merged':
        if (typeof payload['alias_rid'] === 'string') this.removeProperty(payload['alias_rid']);
        return;
      case 'authorization':
      case 'authorization.granted':
      case 'authorization.modified': {
        const grant = grantFrom(payload, this.intern);
        if (grant) this.putGrant(grant);
        return;
      }
      case 'authorization.revoked':
        if (typeof payload['id'] === 'string') this.removeGrant(payload['id']);
        return;
      case 'publisher':
      case 'publisher.adagents_discovered':
      case 'publisher.adagents_changed': {
        const publisher = publisherFrom(payload, this.intern, (domain) => this.nodes.get(domain)?.file);
        if (publisher) {
          this.touchedPublishers.add(publisher.domain);
          const node = this.node(publisher.domain);
          if (node.file?.stale) this.tally.stalePublishers--;
          if (publisher.stale) this.tally.stalePublishers++;
          node.file = publisher;
          this.filed.add(node.domain);
          node.stale = publisher.stale;
          this.table.setPublisher(node.number, node.domain, true, node.stale);
        }
        return;
      }
      case 'collection':
      case 'collection.created':
      case 'collection.updated':
      case 'collection.removed': {
        const collection = collectionFrom(payload, this.intern);
        if (collection) this.putCollection(collection);
        return;
      }
      case 'collection.merged':
        if (typeof payload['alias_rid'] === 'string') this.removeCollection(payload['alias_rid']);
        return;
      default:
    }
  }

  // Reads.

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

  // Writes.

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

  private putProperty(record: IndexedProperty): void {
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
      if (known === undefined) values.set(value, property);
      else if (known === property || (Array.isArray(known) && known.includes(property))) continue;
      else if (Array.isArray(known)) known.push(property);
      else values.set(value, [known, property]);
    }
    node.properties.set(property.rid, property);
    if (property.propertyId !== null) node.byPropertyId.set(property.propertyId, property);
    if (property.stale) {
      node.staleProperties++;
      this.tally.staleProperties++;
    }
  }

  private removeProperty(rid: string): void {
    const old = this.properties.get(rid);
    if (!old) return;
    this.properties.delete(rid);
    this.touchedPublishers.add(old.publisher);
    const normalized = normalizedIdentifiers(old);
    this.table.forgetProperty(old.number, old.node.number, old, normalized);
    this.byNumber[old.number] = undefined;
    this.propertyNumbers.give(old.number);
    for (const { type, value } of normalized) {
      const values = this.byIdentifier.get(type);
      const known = values?.get(value);
      const rest = (Array.isArray(known) ? known : known === undefined ? [] : [known]).filter((p) => p !== old);
      if (rest.length > 1) values!.set(value, rest);
      else if (rest.length === 1) values!.set(value, rest[0]!);
      else values?.delete(value);
    }
    const node = old.node;
    node.properties.delete(rid);
    if (old.stale) {
      node.staleProperties--;
      this.tally.staleProperties--;
    }
    if (old.propertyId !== null && node.byPropertyId.get(old.propertyId) === old)
      node.byPropertyId.delete(old.propertyId);
    this.prune(node);
  }

  private putGrant(grant: IndexedGrant): void {
    this.removeGrant(grant.id);
    this.grants.set(grant.id, grant);
    this.touchedAgents.add(grant.agent);
    let ofSource = this.grantsBySource.get(grant.source);
    if (!ofSource) this.grantsBySource.set(grant.source, (ofSource = new Set()));
    ofSource.add(grant);
    let ofAgent = this.grantsOfAgent.get(grant.agent);
    if (!ofAgent) this.grantsOfAgent.set(grant.agent, (ofAgent = new Set()));
    ofAgent.add(grant);
    for (const [target, coverage] of compile(grant)) {
      const node = this.node(target);
      const known = node.get(grant.agent);
      if (known === undefined) node.set(grant.agent, coverage);
      else if (Array.isArray(known)) known.push(coverage);
      else node.set(grant.agent, [known, coverage]);
      this.table.setCoverage(node.number, this.table.agentNumber(grant.agent), node.coverages(grant.agent));
    }
  }

  private removeGrant(id: string): void {
    const old = this.grants.get(id);
    if (!old) return;
    this.grants.delete(id);
    this.touchedAgents.add(old.agent);
    const ofSource = this.grantsBySource.get(old.source);
    ofSource?.delete(old);
    if (ofSource?.size === 0) this.grantsBySource.delete(old.source);
    const ofAgent = this.grantsOfAgent.get(old.agent);
    ofAgent?.delete(old);
    if (ofAgent?.size === 0) this.grantsOfAgent.delete(old.agent);
    for (const target of new Set(old.scopes.map((s) => s.target_publisher))) {
      const node = this.nodes.get(target);
      if (!node) continue;
      const rest = node.coverages(old.agent).filter((c) => c.grant !== old);
      if (rest.length > 1) node.set(old.agent, rest);
      else if (rest.length === 1) node.set(old.agent, rest[0]!);
      else node.delete(old.agent);
      this.table.setCoverage(node.number, this.table.agentNumber(old.agent), rest);
      this.prune(node);
    }
  }

  private putCollection(collection: IndexedCollection): void {
    this.removeCollection(collection.rid);
    this.collections.set(collection.rid, collection);
    if (collection.removed) this.tally.removedCollections++;
    this.node(collection.publisher).collections.set(collection.rid, collection);
  }

  private removeCollection(rid: string): void {
    const old = this.collections.get(rid);
    if (!old) return;
    this.collections.delete(rid);
    if (old.removed) this.tally.removedCollections--;
    const node = this.nodes.get(old.publisher);
    if (!node) return;
    node.collections.delete(rid);
    this.prune(node);
  }
}

const none: readonly never[] = Object.freeze([]);

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

/** A property's identifiers as compared, each once (two may normalize alike). Computed when needed: kept, they would cost a list per property. */
function normalizedIdentifiers(property: IndexedProperty): Identifier[] {
  const out: Identifier[] = [];
  for (const { type, value } of property.identifiers) {
    const normalized = normalizeIdentifier(type, value);
    if (!out.some((i) => i.type === type && i.value === normalized)) out.push({ type, value: normalized });
  }
  return out;
}

/** Domains compare lowercase (as the crawler stores them); store and bundle ids as given. */
export function normalizeIdentifier(type: string, value: string): string {
  return type === 'domain' || type === 'subdomain' ? value.trim().toLowerCase() : value.trim();
}

export function covers(c: Omit<Coverage, 'grant' | 'delegationType'>, property: IndexedProperty): boolean {
  if (c.all) return true;
  if (c.rids?.has(property.rid)) return true;
  if (c.propertyIds && property.propertyId !== null && c.propertyIds.has(property.propertyId)) return true;
  if (c.tags) for (const tag of property.tags) if (c.tags.has(tag)) return true;
  return false;
}

/** A grant's scopes grouped by target publisher. Signal scopes cover no property. */
function compile(grant: IndexedGrant): Map<string, Coverage> {
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
