import type { Queryable } from '../../../db/database.ts';

/**
 * One keyset page of `select`'s rows after `after` in `key` order (`keyType` its SQL type), as the
 * feed snapshot reads the graph: each table family's `…Page` is this over its own columns.
 */
export function keysetPage<Row>(
  db: Queryable,
  select: string,
  key: string,
  keyType: 'uuid' | 'text',
  after: string | undefined,
  limit: number,
): Promise<Row[]> {
  return db.query<Row>(`${select} where ($1::${keyType} is null or ${key} > $1) order by ${key} limit $2`, [
    after ?? null,
    limit,
  ]);
}
