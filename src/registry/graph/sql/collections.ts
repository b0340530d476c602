import type { Queryable } from '../../../db/database.ts';
import { keysetPage } from './keyset-page.ts';

/** A publisher's collections (adagents.json `collections`). */

type Json = Record<string, unknown>;

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

export const collectionsPage = (db: Queryable, after: string | undefined, limit: number) =>
  keysetPage<CollectionRow>(
    db,
    `select ${COLLECTION} from catalog_collections`,
    'collection_rid',
    'uuid',
    after,
    limit,
  );
