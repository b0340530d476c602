import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { canonicalAgentUrl } from '../../protocol/agent-url.ts';
import { isRecord, records, strings, type JsonObject as Json } from '../../protocol/json-values.ts';

/**
 * A validated adagents.json turned into the rows of the authorization graph. Pure: the same file
 * always projects the same way, which is what lets a re-crawl compare projections.
 */

export interface Identifier {
  type: string;
  value: string;
}

export interface ProjectedProperty {
  /** How a re-crawl finds this property again: its property_id, else its first identifier. */
  key: string;
  property_id: string | null;
  property_type: string;
  name: string;
  identifiers: Identifier[];
  tags: string[];
  /** The property object as declared. */
  property: Record<string, unknown>;
}

export interface ProjectedCollection {
  collection_id: string;
  name: string;
  kind: string | null;
  /** Distribution identifiers, flattened (`publisher_domain`, `type`, `value`). */
  identifiers: Array<{ publisher_domain: string; type: string; value: string }>;
  collection: Record<string, unknown>;
}

export type ScopeKind = 'all' | 'property_id' | 'tag' | 'rid' | 'signal_id' | 'signal_tag';

/** One thing an authorization covers; for `rid` the value is an inline property's key until stored. */
export interface Scope {
  target_publisher: string;
  kind: ScopeKind;
  value: string;
}

export interface ProjectedAuthorization {
  /** Canonical agent URL, authorization type and ordinal: stable across re-crawls of the same grant. */
  key: string;
  agent_url: string;
  agent_url_canonical: string;
  authorization_type: string;
  authorized_for: string | null;
  delegation_type: string | null;
  /** The authorized_agents[] entry as declared. */
  entry: Record<string, unknown>;
  scopes: Scope[];
}

export interface AdagentsProjection {
  publisher_domain: string;
  document_url: string;
  /** The domain that serves the file, when `authoritative_location` sent us elsewhere. */
  manager_domain: string | null;
  /** Of the canonical JSON: an unchanged file projects nothing new. */
  document_hash: string;
  contact: Record<string, unknown> | null;
  properties: ProjectedProperty[];
  collections: ProjectedCollection[];
  authorizations: ProjectedAuthorization[];
}

export function projectAdagents(publisherDomain: string, documentUrl: string, document: Json): AdagentsProjection {
  const properties = new Map<string, ProjectedProperty>();
  for (const raw of records(document['properties'])) addProperty(properties, raw, publisherDomain);

  const authorizations: ProjectedAuthorization[] = [];
  const ordinals = new Map<string, number>();
  for (const entry of records(document['authorized_agents'])) {
    const agentUrl = String(entry['url']);
    const canonical = canonicalAgentUrl(agentUrl) ?? agentUrl;
    const type = String(entry['authorization_type']);
    const base = `${canonical}|${type}`;
    const ordinal = ordinals.get(base) ?? 0;
    ordinals.set(base, ordinal + 1);
    authorizations.push({
      key: `${base}|${ordinal}`,
      agent_url: agentUrl,
      agent_url_canonical: canonical,
      authorization_type: type,
      authorized_for: typeof entry['authorized_for'] === 'string' ? entry['authorized_for'] : null,
      delegation_type: typeof entry['delegation_type'] === 'string' ? entry['delegation_type'] : null,
      entry,
      scopes: scopesOf(entry, type, publisherDomain, properties),
    });
  }

  const manager = new URL(documentUrl).hostname;
  return {
    publisher_domain: publisherDomain,
    document_url: documentUrl,
    manager_domain: manager === publisherDomain ? null : manager,
    document_hash: createHash('sha256')
      .update(canonicalize(document) ?? '')
      .digest('hex'),
    contact: isRecord(document['contact']) ? document['contact'] : null,
    properties: [...properties.values()],
    collections: collectionsOf(document),
    authorizations,
  };
}

function scopesOf(entry: Json, type: string, publisher: string, properties: Map<string, ProjectedProperty>): Scope[] {
  const own = (kind: ScopeKind, values: unknown) =>
    strings(values).map((value) => ({ target_publisher: publisher, kind, value }));
  switch (type) {
    case 'property_ids':
      return own('property_id', entry['property_ids']);
    case 'property_tags':
      return own('tag', entry['property_tags']);
    case 'signal_ids':
      return own('signal_id', entry['signal_ids']);
    case 'signal_tags':
      return own('signal_tag', entry['signal_tags']);
    case 'inline_properties':
      // Inline properties are the publisher's too: they join its catalog, and the grant names them.
      return records(entry['properties']).map((raw) => ({
        target_publisher: publisher,
        kind: 'rid' as const,
        value: addProperty(properties, raw, publisher).key,
      }));
    case 'publisher_properties':
      return records(entry['publisher_properties']).flatMap((selector): Scope[] => {
        const target = String(selector['publisher_domain']);
        if (selector['selection_type'] === 'by_id')
          return strings(selector['property_ids']).map((value) => ({
            target_publisher: target,
            kind: 'property_id',
            value,
          }));
        if (selector['selection_type'] === 'by_tag')
          return strings(selector['property_tags']).map((value) => ({ target_publisher: target, kind: 'tag', value }));
        return [{ target_publisher: target, kind: 'all', value: '' }];
      });
    default:
      return [];
  }
}

/** Adds a declared property (first declaration of a key wins) and returns the one kept. */
function addProperty(properties: Map<string, ProjectedProperty>, raw: Json, publisher: string): ProjectedProperty {
  const identifiers = records(raw['identifiers']).map((i) =>
    normalizeIdentifier(String(i['type']), String(i['value'])),
  );
  const propertyId = typeof raw['property_id'] === 'string' ? raw['property_id'] : null;
  const first = identifiers[0];
  const key = propertyId ?? (first ? `${first.type}:${first.value}` : `name:${String(raw['name'])}`);
  const existing = properties.get(key);
  if (existing) return existing;
  const projected: ProjectedProperty = {
    key,
    property_id: propertyId,
    property_type: String(raw['property_type']),
    name: String(raw['name']),
    identifiers,
    tags: [...new Set(strings(raw['tags']))],
    property: {
      ...raw,
      publisher_domain: typeof raw['publisher_domain'] === 'string' ? raw['publisher_domain'] : publisher,
    },
  };
  properties.set(key, projected);
  return projected;
}

// Domains compare case-insensitively; other identifiers (bundle ids, store ids) are kept as given.
function normalizeIdentifier(type: string, value: string): Identifier {
  return { type, value: type === 'domain' || type === 'subdomain' ? value.toLowerCase() : value };
}

function collectionsOf(document: Json): ProjectedCollection[] {
  const seen = new Map<string, ProjectedCollection>();
  for (const raw of records(document['collections'])) {
    const id = String(raw['collection_id']);
    if (seen.has(id)) continue;
    seen.set(id, {
      collection_id: id,
      name: String(raw['name']),
      kind: typeof raw['kind'] === 'string' ? raw['kind'] : null,
      identifiers: records(raw['distribution']).flatMap((d) =>
        records(d['identifiers']).map((i) => ({
          publisher_domain: String(d['publisher_domain']).toLowerCase(),
          type: String(i['type']),
          value: String(i['value']),
        })),
      ),
      collection: raw,
    });
  }
  return [...seen.values()];
}
