import { changedFields, feedEvent, type NewEvent } from '../feed/index.ts';
import type { OperatorDeclaration } from './operator-declarations.ts';
import type { AuthorizationRow, CatalogPropertyRow, CollectionRow } from './sql/index.ts';

/**
 * The feed events of the authorization graph (core/registry-event.json). Each carries the entity's
 * whole state after the change, so a mirror applies it without reading the registry back.
 */

export const crawlerActor = 'pipeline:crawler';

type Json = Record<string, unknown>;

/** A property's state as events and the snapshot carry it: the catalog row and its operator side. */
export type PropertyState = Pick<
  CatalogPropertyRow,
  'property_rid' | 'publisher_domain' | 'identifiers' | 'property'
> & {
  status: 'active' | 'stale';
  operator_declarations: OperatorDeclaration[];
};

export function propertyEvent(
  type: 'property.created' | 'property.updated' | 'property.reactivated',
  row: PropertyState,
  extra: Json = {},
): NewEvent {
  return feedEvent(type, row.property_rid, crawlerActor, {
    property_rid: row.property_rid,
    classification: 'property',
    source: 'authoritative',
    identifiers: row.identifiers,
    publisher_domain: row.publisher_domain,
    status: row.status,
    property: row.property,
    operator_declarations: row.operator_declarations,
    ...extra,
  });
}

export function propertyStale(
  row: Pick<CatalogPropertyRow, 'property_rid' | 'publisher_domain' | 'last_resolved_at'>,
  reason: string,
): NewEvent {
  return feedEvent('property.stale', row.property_rid, crawlerActor, {
    property_rid: row.property_rid,
    publisher_domain: row.publisher_domain,
    status: 'stale',
    last_resolved_at: row.last_resolved_at.toISOString(),
    reason,
  });
}

/** One record became an alias of another (`property.merged`, `collection.merged`). */
export function merged(
  entity: 'property' | 'collection',
  alias: string,
  canonical: string,
  publisherDomain: string,
): NewEvent {
  return feedEvent(`${entity}.merged`, alias, crawlerActor, {
    alias_rid: alias,
    canonical_rid: canonical,
    evidence: 'adagents_json',
    publisher_domain: publisherDomain,
  });
}

export function collectionEvent(
  type: 'collection.created' | 'collection.updated' | 'collection.removed',
  row: Omit<CollectionRow, 'kind'> & { kind: string | null },
  extra: Json = {},
): NewEvent {
  return feedEvent(type, row.collection_rid, crawlerActor, {
    collection_rid: row.collection_rid,
    publisher_domain: row.publisher_domain,
    collection_id: row.collection_id,
    name: row.name,
    kind: row.kind,
    source: 'authoritative',
    status: row.status,
    identifiers: row.identifiers,
    collection: row.collection,
    ...extra,
  });
}

export function agentDiscovered(agentUrl: string, publisherDomain: string): NewEvent {
  return feedEvent('agent.discovered', agentUrl, crawlerActor, {
    agent_url: agentUrl,
    discovered_at_publisher: publisherDomain,
  });
}

/**
 * The authorized_agents[] entry as declared, with the registry's ids, canonical URL and `scopes`:
 * what it covers, resolved (`target_publisher`, `kind`, `value`; an inline property as its `rid`).
 */
export function authorizationEvent(
  type: 'authorization.granted' | 'authorization.revoked' | 'authorization.modified',
  row: Pick<
    AuthorizationRow,
    'id' | 'agent_url' | 'agent_url_canonical' | 'publisher_domain' | 'entry' | 'scopes' | 'created_at' | 'updated_at'
  >,
  extra: Json = {},
): NewEvent {
  const { url: _url, ...entry } = row.entry;
  return feedEvent(type, row.id, crawlerActor, {
    ...entry,
    id: row.id,
    agent_url: row.agent_url,
    agent_url_canonical: row.agent_url_canonical,
    publisher_domain: row.publisher_domain,
    scopes: row.scopes,
    evidence: 'adagents_json',
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ...extra,
  });
}

export function publisherEvent(
  type: 'publisher.adagents_discovered' | 'publisher.adagents_changed',
  domain: string,
  payload: Json,
): NewEvent {
  return feedEvent(type, domain, crawlerActor, { publisher_domain: domain, source: 'adagents_json', ...payload });
}

/** `changed_fields` as a payload entry: the top-level fields whose values differ, left out when none. */
export function changedFieldsEntry(before: Json, after: Json): { changed_fields?: string[] } {
  const fields = changedFields(before, after);
  return fields.length > 0 ? { changed_fields: fields } : {};
}
