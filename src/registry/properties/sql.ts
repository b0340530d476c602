import type { Queryable } from '../../db/database.ts';
import { likePattern } from '../../db/like.ts';

/** Every query of the properties capability. */

export type PropertySource = 'adagents_json' | 'community';

export interface AuthorizedAgent {
  url: string;
  authorized_for?: string;
}

export interface InventoryItem {
  type: string;
  name: string;
}

export interface Contact {
  name?: string;
  email?: string;
}

export interface PropertyRow {
  id: string;
  publisher_domain: string;
  source: PropertySource;
  status: 'active' | 'stale';
  authorized_agents: AuthorizedAgent[];
  inventory: InventoryItem[];
  contact: Contact | null;
  revision: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'p.id, p.publisher_domain, p.source, p.status, p.authorized_agents, p.inventory, p.contact, p.revision, p.created_at, p.updated_at';

export async function byDomains(db: Queryable, domains: string[]): Promise<Map<string, PropertyRow>> {
  const rows = await db.query<PropertyRow>(`select ${COLUMNS} from properties p where p.publisher_domain = any($1::text[])`, [domains]);
  return new Map(rows.map((row) => [row.publisher_domain, row]));
}

/** Locks the entry, so concurrent saves of one domain take consecutive revision numbers. */
export async function lockByDomain(tx: Queryable, domain: string): Promise<PropertyRow | undefined> {
  const [row] = await tx.query<PropertyRow>(`select ${COLUMNS} from properties p where p.publisher_domain = $1 for update`, [domain]);
  return row;
}

export interface EditableFields {
  authorized_agents: AuthorizedAgent[];
  inventory: InventoryItem[];
  contact: Contact | null;
}

/** Creates a community entry, or takes the next revision of a non-authoritative one; nothing when authoritative. */
export async function upsertCommunity(tx: Queryable, id: string, domain: string, f: EditableFields): Promise<PropertyRow | undefined> {
  const [row] = await tx.query<PropertyRow>(
    `insert into properties as p (id, publisher_domain, source, authorized_agents, inventory, contact, revision)
     values ($1, $2, 'community', $3, $4, $5, 1)
     on conflict (publisher_domain) do update set
       authorized_agents = excluded.authorized_agents, inventory = excluded.inventory, contact = excluded.contact,
       revision = p.revision + 1, updated_at = now()
     where p.source <> 'adagents_json'
     returning ${COLUMNS}`,
    [id, domain, JSON.stringify(f.authorized_agents), JSON.stringify(f.inventory), f.contact ? JSON.stringify(f.contact) : null],
  );
  return row;
}

export async function restore(tx: Queryable, id: string, f: EditableFields): Promise<PropertyRow> {
  const [row] = await tx.query<PropertyRow>(
    `update properties p set authorized_agents = $2, inventory = $3, contact = $4, revision = p.revision + 1, updated_at = now()
     where p.id = $1 returning ${COLUMNS}`,
    [id, JSON.stringify(f.authorized_agents), JSON.stringify(f.inventory), f.contact ? JSON.stringify(f.contact) : null],
  );
  return row!;
}

export async function setStatus(tx: Queryable, domain: string, status: 'active' | 'stale'): Promise<void> {
  await tx.query(`update properties set status = $2, updated_at = now() where publisher_domain = $1`, [domain, status]);
}

/** Writes an entry projected from the publisher's adagents.json; it replaces any community entry. */
export async function upsertAuthoritative(tx: Queryable, id: string, domain: string, f: EditableFields): Promise<PropertyRow> {
  const [row] = await tx.query<PropertyRow>(
    `insert into properties as p (id, publisher_domain, source, authorized_agents, inventory, contact, revision)
     values ($1, $2, 'adagents_json', $3, $4, $5, 1)
     on conflict (publisher_domain) do update set
       source = 'adagents_json', status = 'active', authorized_agents = excluded.authorized_agents,
       inventory = excluded.inventory, contact = excluded.contact, revision = p.revision + 1, updated_at = now()
     returning ${COLUMNS}`,
    [id, domain, JSON.stringify(f.authorized_agents), JSON.stringify(f.inventory), f.contact ? JSON.stringify(f.contact) : null],
  );
  return row!;
}

const MATCHES = `($1::text is null or p.publisher_domain ilike $1 escape '\\'
  or exists (select 1 from jsonb_array_elements(p.inventory) i where i->>'name' ilike $1 escape '\\'))`;

export async function listPage(db: Queryable, f: { q?: string; source?: PropertySource; after?: string; limit: number }): Promise<PropertyRow[]> {
  return db.query<PropertyRow>(
    `select ${COLUMNS} from properties p
     where ${MATCHES} and ($2::text is null or p.source = $2) and ($3::text is null or p.publisher_domain > $3)
     order by p.publisher_domain limit $4`,
    [likePattern(f.q), f.source ?? null, f.after ?? null, f.limit + 1],
  );
}

/** Community entries in id order after `after`, for the feed snapshot. */
export async function communityPageById(db: Queryable, after: string | undefined, limit: number): Promise<PropertyRow[]> {
  return db.query<PropertyRow>(
    `select ${COLUMNS} from properties p where p.source = 'community' and ($1::uuid is null or p.id > $1) order by p.id limit $2`,
    [after ?? null, limit],
  );
}

export async function countBySource(db: Queryable, q: string | undefined): Promise<Record<PropertySource, number>> {
  const rows = await db.query<{ source: PropertySource; n: number }>(
    `select p.source, count(*)::int as n from properties p where ${MATCHES} group by p.source`,
    [likePattern(q)],
  );
  const counts: Record<PropertySource, number> = { adagents_json: 0, community: 0 };
  for (const row of rows) counts[row.source] = row.n;
  return counts;
}
