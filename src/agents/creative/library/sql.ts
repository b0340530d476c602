import type { Queryable } from '../../../db/database.ts';
import {
  creativesByIds as byIdsIn,
  listing as listingIn,
  lockLibrary as lockIn,
  unarchived as unarchivedIn,
  upsertCreative as upsertIn,
  type LibraryCreative,
  type LibraryFilters,
  type LibraryTable,
  type Params,
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

/** creative_library: one library a (owner, account reference), its formats keyed by any spelling of this agent's URL. */
const table: LibraryTable = {
  table: 'creative_library',
  keyColumns: ['owner', 'account_key'],
  scopeColumn: 'account_key',
  formatKey: ownFormatKey,
  // This agent assigns creatives to no package: every creative's count is 0, so that sort keeps the order they were synced in.
  assignmentCount: '0::int',
};

const keyOf = (key: LibraryKey) => [key.owner, key.account];

export const lockLibrary = (tx: Queryable, key: LibraryKey) => lockIn(tx, table, keyOf(key));

export const creativesByIds = (db: Queryable, key: LibraryKey, creativeIds: readonly string[]) =>
  byIdsIn<StoredCreative>(db, table, keyOf(key), creativeIds);

/** The library's creatives that are not archived, in the order they were first synced: what delete_missing archives when a sync leaves them out. */
export const unarchived = (db: Queryable, key: LibraryKey) => unarchivedIn<StoredCreative>(db, table, keyOf(key));

export const upsertCreative = (tx: Queryable, key: LibraryKey, c: LibraryCreative) =>
  upsertIn(tx, table, { owner: key.owner, scope: key.account }, c);

/** A creative of the owner's libraries by its id: of the one `account` names, else of any (several when libraries share the id). */
export async function creativeInLibraries(
  db: Queryable,
  owner: string,
  account: string | undefined,
  creativeId: string,
): Promise<StoredCreative[]> {
  return db.query<StoredCreative>(
    `select c.seq, c.owner, c.account_key, c.creative_id, c.name, c.format_id, c.assets, c.tags, c.status, c.details, c.created_at, c.updated_at
     from creative_library c where c.owner = $1 and ($2::text is null or c.account_key = $2) and c.creative_id = $3 order by c.seq limit 2`,
    [owner, account ?? null, creativeId],
  );
}

/** The owner's creatives to list: the filters every library has, and which of its libraries (all when absent). */
export interface ListFilters extends LibraryFilters {
  accountKeys?: readonly string[];
}

const query = (owner: string, f: ListFilters) => ({
  owner,
  filters: f,
  own: (p: Params) => (f.accountKeys ? [`c.account_key = any(${p.add(f.accountKeys, 'text[]')})`] : []),
});

/** The owner's creatives the filters select, in `sort`'s order, as list_creatives pages and counts them. */
export const listing = (db: Queryable, owner: string, filters: ListFilters, sort: Sort) =>
  listingIn<StoredCreative>(db, table, query(owner, filters), sort);
