import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import type { ResolvedAccount } from '../../runtime/index.ts';
import type { Product } from '../catalog/index.ts';
import { itemId, itemProblem, selectItems, type BuyerCatalog } from './items.ts';
import * as sql from './sql.ts';

/** core/product.json `catalog_match`. */
export interface CatalogMatch {
  matched_ids: string[];
  matched_gtins?: string[];
  matched_count: number;
  submitted_count: number;
}

/** Ids answered per product at most: the count says how many matched. */
const maxMatchedIds = 100;

/**
 * The items get_products' `catalog` names: its inline items, or else the account's synced
 * catalog of that catalog_id (REFERENCE_NOT_FOUND when there is none, or no account to look in),
 * narrowed by its selectors. Items that could not be synced (no id, not their type's schema)
 * are left out here too.
 */
export async function catalogItems(
  db: Queryable,
  account: ResolvedAccount | undefined,
  catalog: BuyerCatalog,
): Promise<Record<string, unknown>[]> {
  let items = catalog.items;
  if (!items) {
    const synced =
      catalog.catalog_id !== undefined && account
        ? await sql.catalogOf(db, account.account_id, catalog.catalog_id)
        : undefined;
    if (!synced) {
      throw new AgentError(
        'REFERENCE_NOT_FOUND',
        catalog.catalog_id === undefined
          ? 'catalog needs its items inline, or the catalog_id of a catalog synced to your account.'
          : `No catalog ${catalog.catalog_id} is synced to ${account ? `account ${account.account_id}` : 'this request: name the account it was synced to'}.`,
        {
          field: catalog.catalog_id === undefined ? 'catalog.items' : 'catalog.catalog_id',
          suggestion: 'Sync it with sync_catalogs and pass the same account, or send the items inline.',
        },
      );
    }
    if (synced.type !== catalog.type)
      throw new AgentError(
        'VALIDATION_ERROR',
        `Catalog ${catalog.catalog_id} is a ${synced.type} catalog, not ${catalog.type}.`,
        { field: 'catalog.type' },
      );
    items = synced.catalog.items ?? [];
  }
  return selectItems(
    catalog,
    items.filter((item) => itemProblem(catalog.type, item) === undefined),
  );
}

/**
 * Which items each product can carry: every product that takes the catalog's type
 * (`catalog_types`) is offered all of them; a product that does not take it matches none. Only
 * products with a match are answered (get-products-request.json: "returns products where
 * matches exist").
 */
export function matchCatalog(
  products: readonly Product[],
  type: string,
  items: readonly Record<string, unknown>[],
): Map<string, CatalogMatch> {
  const ids = items.map((item) => itemId(type, item)!);
  const gtins =
    type === 'product' ? items.map((item) => String(item['gtin'] ?? '')).filter((g) => /^[0-9]{8,14}$/.test(g)) : [];
  const matches = new Map<string, CatalogMatch>();
  if (ids.length === 0) return matches;
  for (const product of products) {
    const takes = product['catalog_types'] as readonly string[] | undefined;
    if (!takes?.includes(type)) continue;
    matches.set(product.product_id, {
      matched_ids: ids.slice(0, maxMatchedIds),
      ...(gtins.length > 0 ? { matched_gtins: gtins.slice(0, maxMatchedIds) } : {}),
      matched_count: ids.length,
      submitted_count: ids.length,
    });
  }
  return matches;
}
