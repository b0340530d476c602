import type { Queryable } from '../../db/database.ts';
import type { EntryRow, EntryTables } from '../entries/index.ts';

/** Every query of the properties capability, and the names the shared entry SQL uses for property entries. */

export type PropertySource = 'adagents_json' | 'community';

export interface AuthorizedAgent {
  url: string;
  authorized_for?: string;
}

export interface InventoryItem {
  type: string;
  name: string;
  identifiers?: Array<{ type: string; value: string }>;
  tags?: string[];
}

export interface Contact {
  name?: string;
  email?: string;
}

export interface PropertyRow extends EntryRow {
  publisher_domain: string;
  source: PropertySource;
  status: 'active' | 'stale';
  authorized_agents: AuthorizedAgent[];
  inventory: InventoryItem[];
  contact: Contact | null;
}

const COLUMNS =
  'e.id, e.publisher_domain, e.source, e.status, e.authorized_agents, e.inventory, e.contact, e.revision, e.created_at, e.updated_at';

export const propertyTables: EntryTables = {
  entity: 'property',
  entries: 'properties',
  domain: 'publisher_domain',
  columns: COLUMNS,
  matches: `($1::text is null or e.publisher_domain ilike $1 escape '\\'
    or exists (select 1 from jsonb_array_elements(e.inventory) i where i->>'name' ilike $1 escape '\\'))`,
  authoritative: 'adagents_json',
  sources: ['adagents_json', 'community'],
  tallies: { stale: `e.status = 'stale'` },
  editable: ['authorized_agents', 'inventory', 'contact'],
};

export interface EditableFields {
  authorized_agents: AuthorizedAgent[];
  inventory: InventoryItem[];
  contact: Contact | null;
}

/** The editable columns' parameters, in `propertyTables.editable` order. */
export function editableValues(f: EditableFields): unknown[] {
  return [
    JSON.stringify(f.authorized_agents),
    JSON.stringify(f.inventory),
    f.contact ? JSON.stringify(f.contact) : null,
  ];
}

/** Sets the entry's status; the entry as changed, or undefined when it had that status already (or there is none). */
export async function setStatus(
  tx: Queryable,
  domain: string,
  status: 'active' | 'stale',
): Promise<PropertyRow | undefined> {
  const [row] = await tx.query<PropertyRow>(
    `update properties e set status = $2, updated_at = now() where publisher_domain = $1 and status <> $2 returning ${COLUMNS}`,
    [domain, status],
  );
  return row;
}

/** Writes an entry projected from the publisher's adagents.json; it replaces any community entry. */
export async function upsertAuthoritative(
  tx: Queryable,
  id: string,
  domain: string,
  f: EditableFields,
): Promise<PropertyRow> {
  const [row] = await tx.query<PropertyRow>(
    `insert into properties as e (id, publisher_domain, source, authorized_agents, inventory, contact, revision)
     values ($1, $2, 'adagents_json', $3, $4, $5, 1)
     on conflict (publisher_domain) do update set
       source = 'adagents_json', status = 'active', authorized_agents = excluded.authorized_agents,
       inventory = excluded.inventory, contact = excluded.contact, revision = e.revision + 1, updated_at = now()
     returning ${COLUMNS}`,
    [id, domain, ...editableValues(f)],
  );
  return row!;
}

/** Every entry in id order after `after`, for the feed snapshot's resolutions. */
export async function entriesPageById(db: Queryable, after: string | undefined, limit: number): Promise<PropertyRow[]> {
  return db.query<PropertyRow>(
    `select ${COLUMNS} from properties e where ($1::uuid is null or e.id > $1) order by e.id limit $2`,
    [after ?? null, limit],
  );
}

/** Community entries in id order after `after`, for the feed snapshot. */
export async function communityPageById(
  db: Queryable,
  after: string | undefined,
  limit: number,
): Promise<PropertyRow[]> {
  return db.query<PropertyRow>(
    `select ${COLUMNS} from properties e where e.source = 'community' and ($1::uuid is null or e.id > $1) order by e.id limit $2`,
    [after ?? null, limit],
  );
}

/** What the property check needs of the entries among `domains`, in one query whatever their number. */
export async function entryFacts(
  db: Queryable,
  domains: string[],
): Promise<
  Array<{ publisher_domain: string; source: PropertySource; status: 'active' | 'stale'; agent_count: number }>
> {
  return db.query(
    `select publisher_domain, source, status, jsonb_array_length(authorized_agents) as agent_count from properties where publisher_domain = any($1::text[])`,
    [domains],
  );
}

export interface CheckReportRow {
  id: string;
  total: number;
  remove: number;
  modify: number;
  assess: number;
  ok: number;
  created_at: Date;
  expires_at: Date;
}

export async function insertCheckReport(tx: Queryable, report: CheckReportRow): Promise<void> {
  await tx.query(
    `insert into property_check_reports (id, total, remove, modify, assess, ok, created_at, expires_at) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      report.id,
      report.total,
      report.remove,
      report.modify,
      report.assess,
      report.ok,
      report.created_at,
      report.expires_at,
    ],
  );
}

/** Drops the reports that expired by `now`: few each time, found by their index. */
export async function deleteExpiredCheckReports(tx: Queryable, now: Date): Promise<void> {
  await tx.query(`delete from property_check_reports where expires_at <= $1`, [now]);
}

/** The report, unless it has expired by `now`. */
export async function checkReport(db: Queryable, id: string, now: Date): Promise<CheckReportRow | undefined> {
  const [row] = await db.query<CheckReportRow>(
    `select id, total, remove, modify, assess, ok, created_at, expires_at from property_check_reports where id = $1 and expires_at > $2`,
    [id, now],
  );
  return row;
}
