import type { Queryable } from '../../../db/database.ts';
import type { Identifier } from '../project-adagents.ts';
import { keysetPage } from './keyset-page.ts';

/** Catalog properties, with their identifiers and aliases. */

type Json = Record<string, unknown>;

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

/** Keyset pages of the graph for the feed snapshot, each in its key's order. */
export const propertiesPage = (db: Queryable, after: string | undefined, limit: number) =>
  keysetPage<CatalogPropertyRow>(
    db,
    `select ${PROPERTY} from catalog_properties p`,
    'p.property_rid',
    'uuid',
    after,
    limit,
  );
