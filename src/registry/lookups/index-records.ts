/**
 * What the authorization index holds, read from feed payloads (core/registry-event.json and the
 * fields this registry adds: a property's `operator_declarations`, an authorization's `scopes`).
 * The same readers take snapshot items, which carry the same payloads. Repeated values (domains,
 * agent URLs, tags, declarations, scopes) are shared through the index's interner.
 */
import type { Interner } from './interner.ts';

export interface Identifier {
  type: string;
  value: string;
}

/** The property a check asks about: an identifier anywhere, or a publisher's own property id. */
export type PropertyRef = { identifier: Identifier } | { publisher_domain: string; property_id: string };

export interface Declaration {
  operator_domain: string;
  brand_id: string;
  relationship: string;
  /** Canonical URLs of the agents the operator runs. */
  agents: readonly string[];
}

export interface IndexedProperty {
  rid: string;
  publisher: string;
  propertyId: string | null;
  type: string;
  name: string;
  tags: readonly string[];
  identifiers: readonly Identifier[];
  stale: boolean;
  declarations: readonly Declaration[];
}

export type ScopeKind = 'all' | 'property_id' | 'tag' | 'rid' | 'signal_id' | 'signal_tag';

export interface Scope {
  target_publisher: string;
  kind: ScopeKind;
  value: string;
}

export interface IndexedGrant {
  id: string;
  /** Whose adagents.json declares it (a manager's file may name other publishers' properties). */
  source: string;
  agentUrl: string;
  agent: string;
  authorizationType: string;
  authorizedFor: string | null;
  delegationType: string | null;
  exclusive: boolean | null;
  countries: readonly string[] | null;
  signingKeys: unknown[] | null;
  scopes: readonly Scope[];
  /** The entry's narrowing constraints as declared (collections, placements, effective window), or null when it has none. */
  constraints: Readonly<Record<string, unknown>> | null;
}

export interface IndexedPublisher {
  domain: string;
  stale: boolean;
  reason: string | null;
  /** Where the file was read, after authoritative_location hops (null until an event or the snapshot says). */
  documentUrl: string | null;
  /** The domain serving the file when it is not the publisher's own. */
  managerDomain: string | null;
  discoveredAt: string | null;
}

export interface IndexedCollection {
  rid: string;
  publisher: string;
  collectionId: string;
  name: string;
  kind: string | null;
  removed: boolean;
  /** Where it is distributed (core/collection-distribution.json), each platform identifier once. */
  distributionIds: Array<{ type: string; value: string }>;
  /** What a collection list filters on (core/collection.json), null where the publisher declares none. */
  genres: string[] | null;
  genreTaxonomy: string | null;
  contentRating: { system: string; rating: string } | null;
  productionQuality: string | null;
}

type Json = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const objs = (v: unknown): Json[] =>
  Array.isArray(v) ? v.filter((x): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x)) : [];

export function propertyFrom(p: Json, intern: Interner): IndexedProperty | undefined {
  // A community entry's event carries the entry (resolve's shape): not a crawled property, and the
  // graph's snapshot, which a rebuilt index loads, holds none, so neither does a followed one.
  if (p['entry'] !== undefined) return undefined;
  const rid = str(p['property_rid']);
  const publisher = str(p['publisher_domain']);
  if (!rid || !publisher) return undefined;
  const body = (typeof p['property'] === 'object' && p['property'] !== null ? p['property'] : {}) as Json;
  const propertyId = str(body['property_id']);
  return {
    rid,
    publisher: intern.string(publisher),
    propertyId: propertyId === null ? null : intern.string(propertyId),
    type: intern.string(str(body['property_type']) ?? 'unknown'),
    name: str(body['name']) ?? '',
    tags: intern.list([...new Set(strs(body['tags']))].map((t) => intern.string(t))),
    identifiers: objs(p['identifiers']).map((i) => ({
      type: intern.string(String(i['type'])),
      value: String(i['value']),
    })),
    stale: p['status'] === 'stale',
    declarations: intern.list(
      objs(p['operator_declarations']).map((d) => declarationFrom(d, intern)),
      declarationKey,
    ),
  };
}

function declarationFrom(d: Json, intern: Interner): Declaration {
  const declaration: Declaration = {
    operator_domain: intern.string(String(d['operator_domain'])),
    brand_id: intern.string(String(d['brand_id'])),
    relationship: intern.string(String(d['relationship'])),
    agents: intern.list(strs(d['agents']).map((a) => intern.string(a))),
  };
  return intern.object(declarationKey(declaration), () => declaration);
}

const declarationKey = (d: Declaration): string =>
  `${d.operator_domain}\u0000${d.brand_id}\u0000${d.relationship}\u0000${d.agents.join(' ')}`;

export function grantFrom(p: Json, intern: Interner): IndexedGrant | undefined {
  const id = str(p['id']);
  const source = str(p['publisher_domain']);
  const agentUrl = str(p['agent_url']);
  if (!id || !source || !agentUrl) return undefined;
  const optional = (v: unknown) => (typeof v === 'string' ? intern.string(v) : null);
  return {
    id,
    source: intern.string(source),
    agentUrl: intern.string(agentUrl),
    agent: intern.string(str(p['agent_url_canonical']) ?? agentUrl),
    authorizationType: intern.string(str(p['authorization_type']) ?? 'unknown'),
    authorizedFor: optional(p['authorized_for']),
    delegationType: optional(p['delegation_type']),
    exclusive: typeof p['exclusive'] === 'boolean' ? p['exclusive'] : null,
    countries: Array.isArray(p['countries']) ? intern.list(strs(p['countries']).map((c) => intern.string(c))) : null,
    signingKeys: Array.isArray(p['signing_keys']) ? (p['signing_keys'] as unknown[]) : null,
    scopes: intern.list(
      objs(p['scopes']).map((s) => scopeFrom(s, intern)),
      scopeKey,
    ),
    constraints: constraintsOf(p),
  };
}

/** Constraints an authorized_agents[] entry may add to its selection (adagents.json 3.0.6). */
const constraintFields = [
  'collections',
  'placement_ids',
  'placement_tags',
  'effective_from',
  'effective_until',
] as const;

function constraintsOf(p: Json): Json | null {
  let out: Json | null = null;
  for (const field of constraintFields) if (p[field] !== undefined && p[field] !== null) (out ??= {})[field] = p[field];
  return out;
}

function scopeFrom(s: Json, intern: Interner): Scope {
  const scope: Scope = {
    target_publisher: intern.string(String(s['target_publisher'])),
    kind: intern.string(String(s['kind'])) as ScopeKind,
    value: intern.string(String(s['value'] ?? '')),
  };
  return intern.object(scopeKey(scope), () => scope);
}

const scopeKey = (s: Scope): string => `${s.target_publisher}\u0000${s.kind}\u0000${s.value}`;

/**
 * A publisher's file state. A stale event carries only the status and reason, so fields the payload
 * does not carry keep their `previous` values.
 */
export function publisherFrom(
  p: Json,
  intern: Interner,
  previous: (domain: string) => IndexedPublisher | undefined,
): IndexedPublisher | undefined {
  const domain = str(p['publisher_domain']) ?? str(p['domain']);
  if (!domain) return undefined;
  const before = previous(domain);
  const kept = (field: string, old: string | null | undefined) => (field in p ? str(p[field]) : (old ?? null));
  const stale = p['status'] === 'stale';
  return {
    domain: intern.string(domain),
    stale,
    reason: stale ? (str(p['reason']) ?? str(p['stale_reason']) ?? before?.reason ?? null) : null,
    documentUrl: kept('document_url', before?.documentUrl),
    managerDomain: kept('manager_domain', before?.managerDomain),
    discoveredAt: kept('discovered_at', before?.discoveredAt),
  };
}

export function collectionFrom(p: Json, intern: Interner): IndexedCollection | undefined {
  const rid = str(p['collection_rid']);
  const publisher = str(p['publisher_domain']);
  if (!rid || !publisher) return undefined;
  const body = (typeof p['collection'] === 'object' && p['collection'] !== null ? p['collection'] : {}) as Json;
  return {
    rid,
    publisher: intern.string(publisher),
    collectionId: str(p['collection_id']) ?? '',
    name: str(p['name']) ?? '',
    kind: str(p['kind']),
    removed: p['status'] === 'removed',
    distributionIds: distributionIdsOf(p['identifiers'], intern),
    genres: Array.isArray(body['genre']) ? strs(body['genre']).map((g) => intern.string(g)) : null,
    genreTaxonomy: nullable(str(body['genre_taxonomy']), intern),
    contentRating: ratingOf(body['content_rating']),
    productionQuality: nullable(str(body['production_quality']), intern),
  };
}

const nullable = (v: string | null, intern: Interner): string | null => (v === null ? null : intern.string(v));

function distributionIdsOf(v: unknown, intern: Interner): Array<{ type: string; value: string }> {
  const seen = new Set<string>();
  const out: Array<{ type: string; value: string }> = [];
  for (const i of objs(v)) {
    const type = str(i['type']);
    const value = str(i['value']);
    if (type === null || value === null || seen.has(`${type}\u0000${value}`)) continue;
    seen.add(`${type}\u0000${value}`);
    out.push({ type: intern.string(type), value });
  }
  return out;
}

function ratingOf(v: unknown): { system: string; rating: string } | null {
  if (typeof v !== 'object' || v === null) return null;
  const { system, rating } = v as Json;
  return typeof system === 'string' && typeof rating === 'string' ? { system, rating } : null;
}
