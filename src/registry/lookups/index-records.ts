/**
 * What the authorization index holds, read from feed payloads (core/registry-event.json and the
 * fields this registry adds: a property's `operator_declarations`, an authorization's `scopes`).
 * The same readers take snapshot items, which carry the same payloads.
 */

export interface Identifier {
  type: string;
  value: string;
}

export interface Declaration {
  operator_domain: string;
  brand_id: string;
  relationship: string;
  /** Canonical URLs of the agents the operator runs. */
  agents: string[];
}

export interface IndexedProperty {
  rid: string;
  publisher: string;
  propertyId: string | null;
  type: string;
  name: string;
  tags: string[];
  identifiers: Identifier[];
  stale: boolean;
  declarations: Declaration[];
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
  countries: string[] | null;
  signingKeys: unknown[] | null;
  scopes: Scope[];
}

export interface IndexedPublisher {
  domain: string;
  stale: boolean;
  reason: string | null;
}

export interface IndexedCollection {
  rid: string;
  publisher: string;
  collectionId: string;
  name: string;
  kind: string | null;
  removed: boolean;
}

type Json = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const objs = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x)) : []);

export function propertyFrom(p: Json): IndexedProperty | undefined {
  const rid = str(p['property_rid']);
  const publisher = str(p['publisher_domain']);
  if (!rid || !publisher) return undefined;
  const body = (typeof p['property'] === 'object' && p['property'] !== null ? p['property'] : {}) as Json;
  return {
    rid,
    publisher,
    propertyId: str(body['property_id']),
    type: str(body['property_type']) ?? 'unknown',
    name: str(body['name']) ?? '',
    tags: [...new Set(strs(body['tags']))],
    identifiers: objs(p['identifiers']).map((i) => ({ type: String(i['type']), value: String(i['value']) })),
    stale: p['status'] === 'stale',
    declarations: objs(p['operator_declarations']).map((d) => ({
      operator_domain: String(d['operator_domain']),
      brand_id: String(d['brand_id']),
      relationship: String(d['relationship']),
      agents: strs(d['agents']),
    })),
  };
}

export function grantFrom(p: Json): IndexedGrant | undefined {
  const id = str(p['id']);
  const source = str(p['publisher_domain']);
  const agentUrl = str(p['agent_url']);
  if (!id || !source || !agentUrl) return undefined;
  return {
    id,
    source,
    agentUrl,
    agent: str(p['agent_url_canonical']) ?? agentUrl,
    authorizationType: str(p['authorization_type']) ?? 'unknown',
    authorizedFor: str(p['authorized_for']),
    delegationType: str(p['delegation_type']),
    exclusive: typeof p['exclusive'] === 'boolean' ? p['exclusive'] : null,
    countries: Array.isArray(p['countries']) ? strs(p['countries']) : null,
    signingKeys: Array.isArray(p['signing_keys']) ? (p['signing_keys'] as unknown[]) : null,
    scopes: objs(p['scopes']).map((s) => ({ target_publisher: String(s['target_publisher']), kind: String(s['kind']) as ScopeKind, value: String(s['value'] ?? '') })),
  };
}

export function publisherFrom(p: Json): IndexedPublisher | undefined {
  const domain = str(p['publisher_domain']) ?? str(p['domain']);
  if (!domain) return undefined;
  return { domain, stale: p['status'] === 'stale', reason: str(p['reason']) ?? str(p['stale_reason']) };
}

export function collectionFrom(p: Json): IndexedCollection | undefined {
  const rid = str(p['collection_rid']);
  const publisher = str(p['publisher_domain']);
  if (!rid || !publisher) return undefined;
  return { rid, publisher, collectionId: str(p['collection_id']) ?? '', name: str(p['name']) ?? '', kind: str(p['kind']), removed: p['status'] === 'removed' };
}
