import type { Queryable } from '../../db/database.ts';
import type { KeysetReader } from './pagination.ts';

/** The rows of a table a keyset-paged list holds: those meeting `where`, whose parameters are `params` ($1 on). */
export interface KeysetQuery {
  table: string;
  /** The select list; it includes `seq`, which orders the list and names a page's last row. */
  columns: string;
  where: string;
  params: readonly unknown[];
}

/**
 * How `keysetList` reads a list a table keeps in `seq` order: the matching rows after a seq, and
 * how many match in all. The page's two parameters follow the condition's own, so a list states
 * only its table, columns and condition.
 */
export function keysetQuery<T extends { seq: number }>(db: Queryable, list: KeysetQuery): KeysetReader<T> {
  const afterParam = list.params.length + 1;
  return {
    rowsAfter: (after, limit) =>
      db.query<T>(
        `select ${list.columns} from ${list.table} where (${list.where}) and seq > $${afterParam} order by seq limit $${afterParam + 1}`,
        [...list.params, after, limit],
      ),
    async count() {
      const [row] = await db.query<{ n: number }>(`select count(*)::int as n from ${list.table} where ${list.where}`, [
        ...list.params,
      ]);
      return row!.n;
    },
  };
}
