import type { Queryable } from '../../../db/database.ts';
import { firstRow } from '../../../db/first-row.ts';
import { keysetQuery } from '../../runtime/index.ts';
import type { ListDefinition, ListKind } from './kind.ts';

type Kind = ListKind['noun'];

/** A stored list (property or collection): what defines it, never its members. */
export interface ListRow {
  list_id: string;
  kind: Kind;
  owner: string;
  name: string;
  description: string | null;
  definition: ListDefinition;
  webhook_url: string | null;
  /** What it resolved to when last looked at for its webhook. */
  members_hash?: string | null;
  created_at: Date;
  updated_at: Date;
  seq: number;
}

const columns = `list_id, kind, owner, name, description, definition, webhook_url, members_hash, created_at, updated_at, seq::int as seq`;

export async function insertList(
  db: Queryable,
  row: Omit<ListRow, 'seq' | 'updated_at'> & { authTokenHash: Buffer },
): Promise<ListRow> {
  const [inserted] = await db.query<ListRow>(
    `insert into governance_lists (list_id, owner, name, description, definition, webhook_url, auth_token_hash, created_at, updated_at, kind)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9) returning ${columns}`,
    [
      row.list_id,
      row.owner,
      row.name,
      row.description,
      JSON.stringify(row.definition),
      row.webhook_url,
      row.authTokenHash,
      row.created_at,
      row.kind,
    ],
  );
  return inserted!;
}

/** The caller's list of that kind; another's is not found, exactly as one that does not exist. */
export async function listOf(db: Queryable, kind: Kind, owner: string, listId: string): Promise<ListRow | undefined> {
  return firstRow<ListRow>(
    db,
    `select ${columns} from governance_lists where owner = $1 and list_id = $2 and kind = $3`,
    [owner, listId, kind],
  );
}

/** The list of that id shared with `authTokenHash` (its auth_token's SHA-256), or the owner's own; undefined otherwise. */
export async function sharedList(
  db: Queryable,
  kind: Kind,
  listId: string,
  authTokenHash: Buffer | undefined,
  owner: string,
): Promise<ListRow | undefined> {
  return firstRow<ListRow>(
    db,
    `select ${columns} from governance_lists where list_id = $1 and kind = $4 and (owner = $2 or auth_token_hash = $3)`,
    [listId, owner, authTokenHash ?? null, kind],
  );
}

/** The caller's lists of a kind (their name containing `name` when given), keyset-paged in their order of creation. */
export const listsNamed = (db: Queryable, kind: Kind, owner: string, name: string | undefined) =>
  keysetQuery<ListRow>(db, {
    table: 'governance_lists',
    columns,
    where: `owner = $1 and kind = $2 and ($3::text is null or strpos(lower(name), lower($3)) > 0)`,
    params: [owner, kind, name ?? null],
  });

export async function updateList(db: Queryable, row: ListRow): Promise<ListRow> {
  const [updated] = await db.query<ListRow>(
    `update governance_lists set name = $3, description = $4, definition = $5, webhook_url = $6, updated_at = $7
      where owner = $1 and list_id = $2 returning ${columns}`,
    [
      row.owner,
      row.list_id,
      row.name,
      row.description,
      JSON.stringify(row.definition),
      row.webhook_url,
      row.updated_at,
    ],
  );
  return updated!;
}

export async function deleteList(db: Queryable, kind: Kind, owner: string, listId: string): Promise<boolean> {
  const rows = await db.query(
    `delete from governance_lists where owner = $1 and list_id = $2 and kind = $3 returning 1`,
    [owner, listId, kind],
  );
  return rows.length > 0;
}

/** A page of the lists (of every kind) that have a webhook, after `after` (their order of creation). */
export async function listsWithWebhooks(db: Queryable, after: number, limit: number): Promise<ListRow[]> {
  return db.query<ListRow>(
    `select ${columns} from governance_lists where webhook_url is not null and seq > $1 order by seq limit $2`,
    [after, limit],
  );
}

/**
 * Records what a list resolves to now; answers what it resolved to before when that differs (the
 * first record answers `null` before), nothing when it is unchanged or another instance recorded
 * the change first.
 */
export async function recordMembers(
  db: Queryable,
  listId: string,
  hash: string,
  count: number,
): Promise<{ before: number | null } | undefined> {
  return firstRow<{ before: number | null }>(
    db,
    `update governance_lists lists set members_hash = $2, members_count = $3
       from (select list_id, members_count from governance_lists where list_id = $1 for update) previous
      where lists.list_id = previous.list_id and lists.members_hash is distinct from $2
      returning previous.members_count as before`,
    [listId, hash, count],
  );
}
