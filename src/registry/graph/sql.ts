import type { Queryable } from '../../db/database.ts';
import type { Identifier, Scope } from './project-adagents.ts';

/** Every query of the authorization graph (migration 0013). Bulk writes go as one JSON array each. */

type Json = Record<string, unknown>;

export interface PublisherRow {
  domain: string;
  status: 'active' | 'stale';
  document_url: string;
  manager_domain: string | null;
  document_hash: string;
  stale_reason: string | null;
  discovered_at: Date;
  crawled_at: Date;
}

const PUBLISHER =
  'domain, status, document_url, manager_domain, document_hash, stale_reason, discovered_at, crawled_at';

/** Creates the publisher if it is new (true then), so the caller can lock it either way. */
export async function ensurePublisher(
  tx: Queryable,
  p: { domain: string; document_url: string; manager_domain: string | null; document_hash: string },
  now: Date,
): Promise<boolean> {
  const rows = await tx.query(
    `insert into publishers (domain, status, document_url, manager_domain, document_hash, discovered_at, crawled_at)
     values ($1, 'active', $2, $3, $4, $5, $5) on conflict (domain) do nothing returning domain`,
    [p.domain, p.document_url, p.manager_domain, p.document_hash, now],
  );
  return rows.length > 0;
}

/** Serializes crawls of one publisher: whoever holds this lock compares against what the other wrote. */
export async function lockPublisher(tx: Queryable, domain: string): Promise<PublisherRow | undefined> {
  const [row] = await tx.query<PublisherRow>(`select ${PUBLISHER} from publishers where domain = $1 for update`, [
    domain,
  ]);
  return row;
}

export async function publisher(db: Queryable, domain: string): Promise<PublisherRow | undefined> {
  const [row] = await db.query<PublisherRow>(`select ${PUBLISHER} from publishers where domain = $1`, [domain]);
  return row;
}

export async function updatePublisher(
  tx: Queryable,
  p: { domain: string; document_url: string; manager_domain: string | null; document_hash: string },
  now: Date,
): Promise<void> {
  await tx.query(
    `update publishers set status = 'active', stale_reason = null, document_url = $2, manager_domain = $3, document_hash = $4, crawled_at = $5 where domain = $1`,
    [p.domain, p.document_url, p.manager_domain, p.document_hash, now],
  );
}

/** An unchanged re-crawl: only the times move. */
export async function touchPublisher(tx: Queryable, domain: string, now: Date): Promise<void> {
  await tx.query(`update publishers set crawled_at = $2 where domain = $1`, [domain, now]);
  await tx.query(
    `update catalog_properties set last_resolved_at = $2 where publisher_domain = $1 and status = 'active'`,
    [domain, now],
  );
}

export async function markPublisherStale(tx: Queryable, domain: string, reason: string, now: Date): Promise<void> {
  await tx.query(`update publishers set status = 'stale', stale_reason = $2, crawled_at = $3 where domain = $1`, [
    domain,
    reason,
    now,
  ]);
}

export interface CatalogPropertyRow extends PropertyWrite {
  publisher_domain: string;
  status: 'active' | 'stale';
  stale_reason: string | null;
  last_resolved_at: Date;
}

const PROPERTY = `p.property_rid, p.publisher_domain, p.property_key, p.property_id, p.property_type, p.name, p.tags, p.property,
  coalesce((select jsonb_agg(jsonb_build_object('type', i.identifier_type, 'value', i.identifier_value) order by i.identifier_type, i.identifier_value)
            from property_identifiers i where i.property_rid = p.property_rid), '[]'::jsonb) as identifiers,
  p.status, p.stale_reason, p.last_resolved_at`;

export async function propertiesOf(db: Queryable, domain: string): Promise<CatalogPropertyRow[]> {
  return db.query<CatalogPropertyRow>(
    `select ${PROPERTY} from catalog_properties p where p.publisher_domain = $1 order by p.property_key`,
    [domain],
  );
}

export interface PropertyWrite {
  property_rid: string;
  property_key: string;
  property_id: string | null;
  property_type: string;
  name: string;
  tags: string[];
  property: Json;
  identifiers: Identifier[];
}

/** Inserts or rewrites properties as active, with their identifiers. */
export async function upsertProperties(tx: Queryable, domain: string, rows: PropertyWrite[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `insert into catalog_properties (property_rid, publisher_domain, property_key, property_id, property_type, name, tags, property, status, last_resolved_at)
     select x.property_rid, $1, x.property_key, x.property_id, x.property_type, x.name, array(select jsonb_array_elements_text(x.tags)), x.property, 'active', $2
     from jsonb_to_recordset($3::jsonb) as x(property_rid uuid, property_key text, property_id text, property_type text, name text, tags jsonb, property jsonb)
     on conflict (property_rid) do update set
       property_key = excluded.property_key, property_id = excluded.property_id, property_type = excluded.property_type, name = excluded.name,
       tags = excluded.tags, property = excluded.property, status = 'active', stale_reason = null, last_resolved_at = excluded.last_resolved_at`,
    [domain, now, JSON.stringify(rows)],
  );
  const rids = rows.map((r) => r.property_rid);
  await tx.query(`delete from property_identifiers where property_rid = any($1::uuid[])`, [rids]);
  const identifiers = rows.flatMap((r) =>
    r.identifiers.map((i) => ({ rid: r.property_rid, type: i.type, value: i.value })),
  );
  if (identifiers.length === 0) return;
  await tx.query(
    `insert into property_identifiers (identifier_type, identifier_value, property_rid)
     select x.type, x.value, x.rid from jsonb_to_recordset($1::jsonb) as x(rid uuid, type text, value text) on conflict do nothing`,
    [JSON.stringify(identifiers)],
  );
}

export async function markPropertiesStale(tx: Queryable, rids: string[], reason: string): Promise<void> {
  if (rids.length === 0) return;
  await tx.query(
    `update catalog_properties set status = 'stale', stale_reason = $2 where property_rid = any($1::uuid[])`,
    [rids, reason],
  );
}

export async function touchProperties(tx: Queryable, rids: string[], now: Date): Promise<void> {
  if (rids.length === 0) return;
  await tx.query(`update catalog_properties set last_resolved_at = $2 where property_rid = any($1::uuid[])`, [
    rids,
    now,
  ]);
}

/** Retires `alias` records in favour of `canonical`; earlier aliases of them follow. */
export async function mergeProperties(
  tx: Queryable,
  merges: Array<{ alias: string; canonical: string }>,
): Promise<void> {
  if (merges.length === 0) return;
  const payload = JSON.stringify(merges);
  await tx.query(
    `delete from catalog_properties where property_rid in (select x.alias from jsonb_to_recordset($1::jsonb) as x(alias uuid))`,
    [payload],
  );
  await tx.query(
    `update property_aliases a set canonical_rid = x.canonical from jsonb_to_recordset($1::jsonb) as x(alias uuid, canonical uuid) where a.canonical_rid = x.alias`,
    [payload],
  );
  await tx.query(
    `insert into property_aliases (alias_rid, canonical_rid) select x.alias, x.canonical from jsonb_to_recordset($1::jsonb) as x(alias uuid, canonical uuid)
     on conflict (alias_rid) do update set canonical_rid = excluded.canonical_rid`,
    [payload],
  );
}

export interface CollectionRow {
  collection_rid: string;
  publisher_domain: string;
  collection_id: string;
  name: string;
  kind: string | null;
  identifiers: Array<{ publisher_domain: string; type: string; value: string }>;
  collection: Json;
  status: 'active' | 'removed';
}

const COLLECTION = 'collection_rid, publisher_domain, collection_id, name, kind, identifiers, collection, status';

export async function collectionsOf(db: Queryable, domain: string): Promise<CollectionRow[]> {
  return db.query<CollectionRow>(
    `select ${COLLECTION} from catalog_collections where publisher_domain = $1 order by collection_id`,
    [domain],
  );
}

export async function upsertCollections(
  tx: Queryable,
  domain: string,
  rows: Array<Omit<CollectionRow, 'publisher_domain' | 'status'>>,
): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `insert into catalog_collections (collection_rid, publisher_domain, collection_id, name, kind, identifiers, collection, status)
     select x.collection_rid, $1, x.collection_id, x.name, x.kind, x.identifiers, x.collection, 'active'
     from jsonb_to_recordset($2::jsonb) as x(collection_rid uuid, collection_id text, name text, kind text, identifiers jsonb, collection jsonb)
     on conflict (collection_rid) do update set collection_id = excluded.collection_id, name = excluded.name, kind = excluded.kind,
       identifiers = excluded.identifiers, collection = excluded.collection, status = 'active'`,
    [domain, JSON.stringify(rows)],
  );
}

export async function removeCollections(tx: Queryable, rids: string[]): Promise<void> {
  if (rids.length === 0) return;
  await tx.query(`update catalog_collections set status = 'removed' where collection_rid = any($1::uuid[])`, [rids]);
}

export async function deleteCollections(tx: Queryable, rids: string[]): Promise<void> {
  if (rids.length === 0) return;
  await tx.query(`delete from catalog_collections where collection_rid = any($1::uuid[])`, [rids]);
}

export interface AuthorizationRow {
  id: string;
  publisher_domain: string;
  auth_key: string;
  agent_url: string;
  agent_url_canonical: string;
  authorization_type: string;
  authorized_for: string | null;
  delegation_type: string | null;
  entry: Json;
  scopes: Scope[];
  created_at: Date;
  updated_at: Date;
}

const AUTHORIZATION = `a.id, a.publisher_domain, a.auth_key, a.agent_url, a.agent_url_canonical, a.authorization_type, a.authorized_for, a.delegation_type,
  a.entry, a.created_at, a.updated_at,
  coalesce((select jsonb_agg(jsonb_build_object('target_publisher', s.target_publisher, 'kind', s.kind, 'value', s.value)
            order by s.target_publisher, s.kind, s.value) from authorization_scopes s where s.authorization_id = a.id), '[]'::jsonb) as scopes`;

export async function authorizationsOf(db: Queryable, domain: string): Promise<AuthorizationRow[]> {
  return db.query<AuthorizationRow>(
    `select ${AUTHORIZATION} from authorizations a where a.publisher_domain = $1 order by a.auth_key`,
    [domain],
  );
}

export type AuthorizationWrite = Omit<AuthorizationRow, 'publisher_domain' | 'created_at' | 'updated_at'>;

/** Inserts or rewrites authorizations with their scopes. */
export async function upsertAuthorizations(
  tx: Queryable,
  domain: string,
  rows: AuthorizationWrite[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `insert into authorizations (id, publisher_domain, auth_key, agent_url, agent_url_canonical, authorization_type, authorized_for, delegation_type, entry, created_at, updated_at)
     select x.id, $1, x.auth_key, x.agent_url, x.agent_url_canonical, x.authorization_type, x.authorized_for, x.delegation_type, x.entry, $2, $2
     from jsonb_to_recordset($3::jsonb) as x(id uuid, auth_key text, agent_url text, agent_url_canonical text, authorization_type text,
                                             authorized_for text, delegation_type text, entry jsonb)
     on conflict (id) do update set agent_url = excluded.agent_url, authorized_for = excluded.authorized_for,
       delegation_type = excluded.delegation_type, entry = excluded.entry, updated_at = excluded.updated_at`,
    [domain, now, JSON.stringify(rows)],
  );
  await tx.query(`delete from authorization_scopes where authorization_id = any($1::uuid[])`, [rows.map((r) => r.id)]);
  const scopes = rows.flatMap((r) => r.scopes.map((s) => ({ id: r.id, ...s })));
  if (scopes.length === 0) return;
  await tx.query(
    `insert into authorization_scopes (authorization_id, target_publisher, kind, value)
     select x.id, x.target_publisher, x.kind, x.value from jsonb_to_recordset($1::jsonb) as x(id uuid, target_publisher text, kind text, value text)
     on conflict do nothing`,
    [JSON.stringify(scopes)],
  );
}

export async function deleteAuthorizations(tx: Queryable, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(`delete from authorizations where id = any($1::uuid[])`, [ids]);
}

/** Records agent URLs first seen now; returns those that were new, whoever else is crawling. */
export async function discoverAgents(
  tx: Queryable,
  agents: Array<{ canonical: string; url: string }>,
  publisherDomain: string,
  now: Date,
): Promise<string[]> {
  if (agents.length === 0) return [];
  const rows = await tx.query<{ agent_url_canonical: string }>(
    `insert into discovered_agents (agent_url_canonical, agent_url, first_publisher, discovered_at)
     select x.canonical, x.url, $2, $3 from jsonb_to_recordset($1::jsonb) as x(canonical text, url text)
     on conflict do nothing returning agent_url_canonical`,
    [JSON.stringify(agents), publisherDomain, now],
  );
  return rows.map((r) => r.agent_url_canonical);
}

export interface OperatorAgent {
  agent_id: string;
  agent_type: string;
  url: string;
  url_canonical: string;
  jwks_uri: string | null;
  entry: Json;
}

export interface OperatorProperty {
  brand_id: string;
  property_type: string;
  identifier: string;
  relationship: string;
  entry: Json;
}

/** The operator's brand.json is the whole truth about its side: its rows are replaced together. */
export async function replaceOperator(
  tx: Queryable,
  operator: string,
  agents: OperatorAgent[],
  properties: OperatorProperty[],
): Promise<void> {
  await tx.query(`delete from operator_agents where operator_domain = $1`, [operator]);
  await tx.query(`delete from operator_properties where operator_domain = $1`, [operator]);
  if (agents.length > 0) {
    await tx.query(
      `insert into operator_agents (operator_domain, agent_id, agent_type, url, url_canonical, jwks_uri, entry)
       select $1, x.agent_id, x.agent_type, x.url, x.url_canonical, x.jwks_uri, x.entry
       from jsonb_to_recordset($2::jsonb) as x(agent_id text, agent_type text, url text, url_canonical text, jwks_uri text, entry jsonb)
       on conflict do nothing`,
      [operator, JSON.stringify(agents)],
    );
  }
  if (properties.length > 0) {
    await tx.query(
      `insert into operator_properties (operator_domain, brand_id, property_type, identifier, relationship, entry)
       select $1, x.brand_id, x.property_type, x.identifier, x.relationship, x.entry
       from jsonb_to_recordset($2::jsonb) as x(brand_id text, property_type text, identifier text, relationship text, entry jsonb)
       on conflict do nothing`,
      [operator, JSON.stringify(properties)],
    );
  }
}

export interface DeclarationRow {
  operator_domain: string;
  brand_id: string;
  property_type: string;
  identifier: string;
  relationship: string;
  agents: string[];
}

/** Operators' declared properties whose identifier is one of `values` (lowercase), with the operator's agents. */
export async function declarationsFor(db: Queryable, values: string[]): Promise<DeclarationRow[]> {
  return db.query<DeclarationRow>(
    `select op.operator_domain, op.brand_id, op.property_type, op.identifier, op.relationship,
       array(select distinct oa.url_canonical from operator_agents oa where oa.operator_domain = op.operator_domain order by 1) as agents
     from operator_properties op where op.identifier = any($1::text[])`,
    [values],
  );
}

/** Catalog properties with an identifier among `values` (compared lowercase): those an operator's declarations can reach. */
export async function propertiesWithValues(db: Queryable, values: string[]): Promise<CatalogPropertyRow[]> {
  if (values.length === 0) return [];
  return db.query<CatalogPropertyRow>(
    `select ${PROPERTY} from catalog_properties p
     where p.property_rid in (select i.property_rid from property_identifiers i where lower(i.identifier_value) = any($1::text[]))
     order by p.property_rid`,
    [values],
  );
}

export async function operatorAgents(db: Queryable, operator: string): Promise<OperatorAgent[]> {
  return db.query<OperatorAgent>(
    `select agent_id, agent_type, url, url_canonical, jwks_uri, entry from operator_agents where operator_domain = $1 order by agent_id`,
    [operator],
  );
}

export async function operatorProperties(db: Queryable, operator: string): Promise<OperatorProperty[]> {
  return db.query<OperatorProperty>(
    `select brand_id, property_type, identifier, relationship, entry from operator_properties where operator_domain = $1 order by brand_id, property_type, identifier`,
    [operator],
  );
}

/** Agents authorized for an identifier (type, value), through any scope that reaches its property. */
export async function agentsForIdentifier(
  db: Queryable,
  type: string,
  value: string,
): Promise<Array<{ agent_url: string; publisher_domain: string; property_rid: string; authorization_id: string }>> {
  return db.query(
    `select distinct a.agent_url, a.publisher_domain, p.property_rid, a.id as authorization_id
     from property_identifiers i
     join catalog_properties p on p.property_rid = i.property_rid and p.status = 'active'
     join authorization_scopes s on s.target_publisher = p.publisher_domain
       and ((s.kind = 'all') or (s.kind = 'property_id' and s.value = p.property_id) or (s.kind = 'tag' and s.value = any(p.tags))
            or (s.kind = 'rid' and s.value = p.property_rid::text))
     join authorizations a on a.id = s.authorization_id
     where i.identifier_type = $1 and i.identifier_value = $2
     order by a.agent_url, a.publisher_domain`,
    [type, value],
  );
}

/** Properties an agent is authorized for, across every publisher that names it. */
export async function propertiesForAgent(
  db: Queryable,
  canonicalUrl: string,
): Promise<Array<{ property_rid: string; publisher_domain: string; name: string; authorization_id: string }>> {
  return db.query(
    `select distinct p.property_rid, p.publisher_domain, p.name, a.id as authorization_id
     from authorizations a
     join authorization_scopes s on s.authorization_id = a.id
     join catalog_properties p on p.publisher_domain = s.target_publisher and p.status = 'active'
       and ((s.kind = 'all') or (s.kind = 'property_id' and s.value = p.property_id) or (s.kind = 'tag' and s.value = any(p.tags))
            or (s.kind = 'rid' and s.value = p.property_rid::text))
     where a.agent_url_canonical = $1
     order by p.publisher_domain, p.name`,
    [canonicalUrl],
  );
}

/** Keyset pages of the graph for the feed snapshot, each in its key's order. */
export async function propertiesPage(
  db: Queryable,
  after: string | undefined,
  limit: number,
): Promise<CatalogPropertyRow[]> {
  return db.query<CatalogPropertyRow>(
    `select ${PROPERTY} from catalog_properties p where ($1::uuid is null or p.property_rid > $1) order by p.property_rid limit $2`,
    [after ?? null, limit],
  );
}

export async function collectionsPage(
  db: Queryable,
  after: string | undefined,
  limit: number,
): Promise<CollectionRow[]> {
  return db.query<CollectionRow>(
    `select ${COLLECTION} from catalog_collections where ($1::uuid is null or collection_rid > $1) order by collection_rid limit $2`,
    [after ?? null, limit],
  );
}

export async function authorizationsPage(
  db: Queryable,
  after: string | undefined,
  limit: number,
): Promise<AuthorizationRow[]> {
  return db.query<AuthorizationRow>(
    `select ${AUTHORIZATION} from authorizations a where ($1::uuid is null or a.id > $1) order by a.id limit $2`,
    [after ?? null, limit],
  );
}

export async function publishersPage(db: Queryable, after: string | undefined, limit: number): Promise<PublisherRow[]> {
  return db.query<PublisherRow>(
    `select ${PUBLISHER} from publishers where ($1::text is null or domain > $1) order by domain limit $2`,
    [after ?? null, limit],
  );
}
