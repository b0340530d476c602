import type { Queryable } from '../../db/database.ts';
import type { KeysetReader } from './pagination.ts';

/** One table's list as `keysetList` reads it: the rows `where` selects, its parameters numbered from $1. */
export interface KeysetTable {
  table: string;
  /** The columns each row is read with; `seq` among them, as a number. */
  columns: string;
  where: string;
  params: readonly unknown[];
}

/**
 * The keyset reader of a table's list: a page is the rows `where` selects after a `seq`, in `seq`
 * order, and the total is counted under the same condition, so a page and the count it reports
 * never disagree on what the list holds.
 */
export function keysetRows<T extends { seq: number }>(db: Queryable, list: KeysetTable): KeysetReader<T> {
  const { table, columns, where, params } = list;
  const after = `$${params.length + 1}`;
  const limit = `$${params.length + 2}`;
  return {
    rowsAfter: (seq, size) =>
      db.query<T>(`select ${columns} from ${table} where (${where}) and seq > ${after} order by seq limit ${limit}`, [
        ...params,
        seq,
        size,
      ]),
    count: async () => {
      const [row] = await db.query<{ count: number }>(
        `select count(*)::int as count from ${table} where ${where}`,
        params,
      );
      return row!.count;
    },
  };
}
