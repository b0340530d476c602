import type { Queryable } from '../../../db/database.ts';
import type { BuyerCatalog } from './items.ts';

export interface CatalogRow {
  account_id: string;
  catalog_id: string;
  type: string;
  catalog: BuyerCatalog;
  item_count: number;
  created_at: Date;
  updated_at: Date;
}

const columns = 'account_id, catalog_id, type, catalog, item_count, created_at, updated_at';

export async function catalogsOf(db: Queryable, accountId: string): Promise<CatalogRow[]> {
  return db.query<CatalogRow>(`select ${columns} from sales_catalogs where account_id = $1 order by catalog_id`, [
    accountId,
  ]);
}

export async function catalogOf(db: Queryable, accountId: string, catalogId: string): Promise<CatalogRow | undefined> {
  const [row] = await db.query<CatalogRow>(
    `select ${columns} from sales_catalogs where account_id = $1 and catalog_id = $2`,
    [accountId, catalogId],
  );
  return row;
}

export async function upsertCatalog(db: Queryable, row: CatalogRow): Promise<void> {
  await db.query(
    `insert into sales_catalogs (${columns}) values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (account_id, catalog_id) do update set type = excluded.type, catalog = excluded.catalog, item_count = excluded.item_count, updated_at = excluded.updated_at`,
    [
      row.account_id,
      row.catalog_id,
      row.type,
      JSON.stringify(row.catalog),
      row.item_count,
      row.created_at,
      row.updated_at,
    ],
  );
}

export async function deleteCatalog(db: Queryable, accountId: string, catalogId: string): Promise<void> {
  await db.query(`delete from sales_catalogs where account_id = $1 and catalog_id = $2`, [accountId, catalogId]);
}
