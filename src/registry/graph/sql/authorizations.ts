import type { Queryable } from '../../../db/database.ts';
import type { Scope } from '../project-adagents.ts';
import { keysetPage } from './keyset-page.ts';

/** Authorizations (adagents.json `authorized_agents`) with their scopes, and the agents they name. */

type Json = Record<string, unknown>;

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

export const authorizationsPage = (db: Queryable, after: string | undefined, limit: number) =>
  keysetPage<AuthorizationRow>(db, `select ${AUTHORIZATION} from authorizations a`, 'a.id', 'uuid', after, limit);

/** Whether scope `s` covers catalog property `p`, as the index's `covers` decides it in memory. */
const SCOPE_COVERS_PROPERTY = `((s.kind = 'all') or (s.kind = 'property_id' and s.value = p.property_id)
  or (s.kind = 'tag' and s.value = any(p.tags)) or (s.kind = 'rid' and s.value = p.property_rid::text))`;

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
       and ${SCOPE_COVERS_PROPERTY}
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
       and ${SCOPE_COVERS_PROPERTY}
     where a.agent_url_canonical = $1
     order by p.publisher_domain, p.name`,
    [canonicalUrl],
  );
}
