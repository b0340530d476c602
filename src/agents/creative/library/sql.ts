import type { Queryable } from '../../../db/database.ts';
import {
  libraryConditions,
  orderBy,
  Params,
  type LibraryCreative,
  type LibraryFilters,
  type Sort,
} from '../../creative-library/index.ts';
import { ownFormatKey } from '../own-formats.ts';

/** One library: whose, and which account reference of its owner's (account.ts). */
export interface LibraryKey {
  owner: string;
  account: string;
}

/** A creative as stored in creative_library. */
export interface StoredCreative extends LibraryCreative {
  seq: number;
  owner: string;
  account_key: string;
}

const columns =
  'c.seq, c.owner, c.account_key, c.creative_id, c.name, c.format_id, c.assets, c.tags, c.status, c.details, c.created_at, c.updated_at';

/** Serializes the syncs of one library, so two never both decide a creative is new, nor archive what the other stores. */
export async function lockLibrary(tx: Queryable, key: LibraryKey): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, [
    JSON.stringify(['creative_library', key.owner, key.account]),
  ]);
}

export async function creativesByIds(
  db: Queryable,
  key: LibraryKey,
  creativeIds: readonly string[],
): Promise<StoredCreative[]> {
  if (creativeIds.length === 0) return [];
  return db.query<StoredCreative>(
    `select ${columns} from creative_library c where c.owner = $1 and c.account_key = $2 and c.creative_id = any($3::text[])`,
    [key.owner, key.account, creativeIds],
  );
}

/** A creative of the owner's libraries by its id: of the one `account` names, else of any (several when libraries share the id). */
export async function creativeInLibraries(
  db: Queryable,
  owner: string,
  account: string | undefined,
  creativeId: string,
): Promise<StoredCreative[]> {
  return db.query<StoredCreative>(
    `select ${columns} from creative_library c where c.owner = $1 and ($2::text is null or c.account_key = $2) and c.creative_id = $3 order by c.seq limit 2`,
    [owner, account ?? null, creativeId],
  );
}

/** The library's creatives that are not archived, in the order they were first synced: what delete_missing archives when a sync leaves them out. */
export async function unarchived(db: Queryable, key: LibraryKey): Promise<StoredCreative[]> {
  return db.query<StoredCreative>(
    `select ${columns} from creative_library c where c.owner = $1 and c.account_key = $2 and c.status <> 'archived' order by c.seq`,
    [key.owner, key.account],
  );
}

/** Inserts the creative, or replaces what a sync may change of it (its creation time and order stay). */
export async function upsertCreative(tx: Queryable, key: LibraryKey, c: LibraryCreative): Promise<void> {
  await tx.query(
    `insert into creative_library (owner, account_key, creative_id, name, format_id, format_key, assets, tags, status, details, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8::text[], $9, $10, $11, $12)
     on conflict (owner, account_key, creative_id) do update set name = excluded.name, format_id = excluded.format_id, format_key = excluded.format_key,
       assets = excluded.assets, tags = excluded.tags, status = excluded.status, details = excluded.details, updated_at = excluded.updated_at`,
    [
      key.owner,
      key.account,
      c.creative_id,
      c.name,
      JSON.stringify(c.format_id),
      ownFormatKey(c.format_id),
      JSON.stringify(c.assets),
      c.tags,
      c.status,
      JSON.stringify(c.details),
      c.created_at,
      c.updated_at,
    ],
  );
}

/** The owner's creatives to list: the filters every library has, and which of its libraries (all when absent). */
export interface ListFilters extends LibraryFilters {
  accountKeys?: readonly string[];
}

function where(owner: string, f: ListFilters): { sql: string; params: Params } {
  const p = new Params([owner]);
  const conditions = ['c.owner = $1', ...libraryConditions(f, p)];
  if (f.accountKeys) conditions.push(`c.account_key = any(${p.add(f.accountKeys, 'text[]')})`);
  return { sql: conditions.join(' and '), params: p };
}

// This agent assigns creatives to no package: every creative's count is 0, so that sort keeps the order they were synced in.
const assignmentCount = '0::int';

export async function library(
  db: Queryable,
  owner: string,
  filters: ListFilters,
  sort: Sort,
  offset: number,
  limit: number,
): Promise<StoredCreative[]> {
  const { sql, params } = where(owner, filters);
  return db.query<StoredCreative>(
    `select ${columns} from creative_library c where ${sql} order by ${orderBy(sort, assignmentCount)} offset ${params.add(offset, 'int')} limit ${params.add(limit, 'int')}`,
    params.values,
  );
}

export async function countLibrary(db: Queryable, owner: string, filters: ListFilters): Promise<number> {
  const { sql, params } = where(owner, filters);
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from creative_library c where ${sql}`,
    params.values,
  );
  return row!.n;
}
