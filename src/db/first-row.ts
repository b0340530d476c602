import type { Queryable } from './database.ts';

/**
 * The first row a statement returns, or undefined when it returns none: the answer of a lookup by
 * key, or of an `update ... returning` whose condition may match no row.
 */
export async function firstRow<Row>(db: Queryable, sql: string, params?: readonly unknown[]): Promise<Row | undefined> {
  const [row] = await db.query<Row>(sql, params);
  return row;
}
