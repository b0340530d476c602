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

type Json = Record<string, unknown>;

/** What one grant covers of one target publisher, compiled so a check tests membership, not a list. */
export interface Coverage {
  grant: IndexedGrant;
  all: boolean;
  propertyIds: ReadonlySet<string> | null;
  tags: ReadonlySet<string> | null;
  rids: ReadonlySet<string> | null;
}

/**
 * The authorization graph in memory, in both directions: identifier → properties → grants, and
 * agent → grants → publishers. It changes only by `apply` (a feed event or a snapshot item, each
 * carrying the entity's whole new state), so applying the same state twice is harmless; reads
 * never wait and never do I/O.
 */
export class AuthorizationIndex {
  private readonly publishers = new Map<string, IndexedPublisher>();
  private readonly properties = new Map<string, IndexedProperty>();
  private readonly collections = new Map<string, IndexedCollection>();
  private readonly grants = new Map<string, IndexedGrant>();
  /** `type \0 value` → property rids. */
  private readonly byIdentifier = new Map<string, string[]>();
  /** publisher → its property rids. */
  private readonly byPublisher = new Map<string, Set<string>>();
  /** `publisher \0 property_id` → rid. */
  private readonly byPropertyId = new Map<string, string>();
  /** `target publisher \0 canonical agent` → what each of the agent's grants covers there. */
  private readonly coverage = new Map<string, Coverage[]>();
  /** target publisher → canonical agents with a grant there. */
  private readonly agentsOfTarget = new Map<string, Set<string>>();
  /** canonical agent → grant ids. */
  private readonly grantsOfAgent = new Map<string, Set<string>>();
  /** publisher → collection rids. */
  private readonly collectionsOf = new Map<string, Set<string>>();

  /** Moves on every apply, so what is derived from the index knows when to derive again. */
  version = 0;

  /** Applies one feed event (by type) or snapshot item (by entity type, as its latest state). */
  apply(kind: string, payload: Json): void {
    this.version++;
    switch (kind) {
      case 'property':
      case 'property.created':
      case 'property.updated':
      case 'property.reactivated': {
        const property = propertyFrom(payload);
        if (property) this.putProperty(property);
        return;
      }
      case 'property.stale': {
        const rid = payload['property_rid'];
        const existing = typeof rid === 'string' ? this.properties.get(rid) : undefined;
        if (existing) this.properties.set(existing.rid, { ...existing, stale: true });
        return;
      }
      case 'property.merged':
        if (typeof payload['alias_rid'] === 'string') this.removeProperty(payload['alias_rid']);
        return;
      case 'authorization':
      case 'authorization.granted':
      case 'authorization.modified': {
        const grant = grantFrom(payload);
        if (grant) this.putGrant(grant);
        return;
      }
      case 'authorization.revoked':
        if (typeof payload['id'] === 'string') this.removeGrant(payload['id']);
        return;
      case 'publisher':
      case 'publisher.adagents_discovered':
      case 'publisher.adagents_changed': {
        const publisher = publisherFrom(payload);
        if (publisher) this.publishers.set(publisher.domain, publisher);
        return;
      }
      case 'collection':
      case 'collection.created':
      case 'collection.updated':
      case 'collection.removed': {
        const collection = collectionFrom(payload);
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

  publisher(domain: string): IndexedPublisher | undefined {
    return this.publishers.get(domain);
  }

  property(rid: string): IndexedProperty | undefined {
    return this.properties.get(rid);
  }

  grant(id: string): IndexedGrant | undefined {
    return this.grants.get(id);
  }

  propertiesByIdentifier(type: string, value: string): IndexedProperty[] {
    const rids = this.byIdentifier.get(identifierKey(type, value));
    return rids ? rids.map((rid) => this.properties.get(rid)!) : [];
  }

  propertyById(publisher: string, propertyId: string): IndexedProperty | undefined {
    const rid = this.byPropertyId.get(`${publisher}\u0000${propertyId}`);
    return rid === undefined ? undefined : this.properties.get(rid);
  }

  propertiesOfPublisher(publisher: string): IndexedProperty[] {
    return [...(this.byPublisher.get(publisher) ?? [])].map((rid) => this.properties.get(rid)!);
  }

  collectionsOfPublisher(publisher: string): IndexedCollection[] {
    return [...(this.collectionsOf.get(publisher) ?? [])].map((rid) => this.collections.get(rid)!);
  }

  /** The agent's grants that cover this property (any delegation). */
  grantsCovering(agent: string, property: IndexedProperty): IndexedGrant[] {
    const coverages = this.coverage.get(`${property.publisher}\u0000${agent}`);
    if (!coverages) return [];
    const out: IndexedGrant[] = [];
    for (const c of coverages) if (covers(c, property)) out.push(c.grant);
    return out;
  }

  /** Agents with any grant reaching this publisher's properties. */
  agentsAt(publisher: string): string[] {
    return [...(this.agentsOfTarget.get(publisher) ?? [])];
  }

  /** Every grant of `agent` reaching `publisher`, with what it covers there. */
  coveragesAt(publisher: string, agent: string): readonly Coverage[] {
    return this.coverage.get(`${publisher}\u0000${agent}`) ?? [];
  }

  grantsOf(agent: string): IndexedGrant[] {
    return [...(this.grantsOfAgent.get(agent) ?? [])].map((id) => this.grants.get(id)!);
  }

  get size(): { publishers: number; properties: number; grants: number } {
    return { publishers: this.publishers.size, properties: this.properties.size, grants: this.grants.size };
  }

  // Writes.

  private putProperty(property: IndexedProperty): void {
    this.removeProperty(property.rid);
    this.properties.set(property.rid, property);
    for (const i of property.identifiers) push(this.byIdentifier, identifierKey(i.type, i.value), property.rid);
    add(this.byPublisher, property.publisher, property.rid);
    if (property.propertyId !== null) this.byPropertyId.set(`${property.publisher}\u0000${property.propertyId}`, property.rid);
  }

  private removeProperty(rid: string): void {
    const old = this.properties.get(rid);
    if (!old) return;
    this.properties.delete(rid);
    for (const i of old.identifiers) pull(this.byIdentifier, identifierKey(i.type, i.value), rid);
    remove(this.byPublisher, old.publisher, rid);
    const idKey = `${old.publisher}\u0000${old.propertyId}`;
    if (old.propertyId !== null && this.byPropertyId.get(idKey) === rid) this.byPropertyId.delete(idKey);
  }

  private putGrant(grant: IndexedGrant): void {
    this.removeGrant(grant.id);
    this.grants.set(grant.id, grant);
    add(this.grantsOfAgent, grant.agent, grant.id);
    for (const [target, coverage] of compile(grant)) {
      const key = `${target}\u0000${grant.agent}`;
      const list = this.coverage.get(key);
      if (list) list.push(coverage);
      else this.coverage.set(key, [coverage]);
      add(this.agentsOfTarget, target, grant.agent);
    }
  }

  private removeGrant(id: string): void {
    const old = this.grants.get(id);
    if (!old) return;
    this.grants.delete(id);
    remove(this.grantsOfAgent, old.agent, id);
    for (const target of new Set(old.scopes.map((s) => s.target_publisher))) {
      const key = `${target}\u0000${old.agent}`;
      const rest = (this.coverage.get(key) ?? []).filter((c) => c.grant.id !== id);
      if (rest.length > 0) this.coverage.set(key, rest);
      else {
        this.coverage.delete(key);
        remove(this.agentsOfTarget, target, old.agent);
      }
    }
  }

  private putCollection(collection: IndexedCollection): void {
    this.removeCollection(collection.rid);
    this.collections.set(collection.rid, collection);
    add(this.collectionsOf, collection.publisher, collection.rid);
  }

  private removeCollection(rid: string): void {
    const old = this.collections.get(rid);
    if (!old) return;
    this.collections.delete(rid);
    remove(this.collectionsOf, old.publisher, rid);
  }
}

/** Domains compare lowercase (as the crawler stores them); store and bundle ids as given. */
export function normalizeIdentifier(type: string, value: string): string {
  return type === 'domain' || type === 'subdomain' ? value.trim().toLowerCase() : value.trim();
}

function identifierKey(type: string, value: string): string {
  return `${type}\u0000${normalizeIdentifier(type, value)}`;
}

export function covers(c: Omit<Coverage, 'grant'>, property: IndexedProperty): boolean {
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
  for (const [target, t] of byTarget) out.set(target, { grant, all: t.all, propertyIds: set(t.ids), tags: set(t.tags), rids: set(t.rids) });
  return out;
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
}

function pull(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (!list) return;
  const rest = list.filter((v) => v !== value);
  if (rest.length > 0) map.set(key, rest);
  else map.delete(key);
}

function add(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

function remove(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}
