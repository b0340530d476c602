import type { Queryable } from '../../db/database.ts';
import type { Format } from '../formats/index.ts';
import { resolveProducts, type Catalog, type Product } from './catalog/index.ts';
import { ProductSearch } from './product-search.ts';

/** A product chosen for an answer, with why it fits the brief when one was given. */
export interface Chosen {
  product: Product;
  relevance?: string;
}

/** What the sales agent sells, as answered at one base URL, with its search index. */
export interface Offering {
  /** Every product the account may buy. */
  products: readonly Product[];
  /** The products get_products answers (all but those seeded hidden), in order, and their search index. */
  listed: readonly Product[];
  search: ProductSearch;
  /** Ids of the standard formats (filters.standard_formats_only). */
  standardFormatIds: ReadonlySet<string>;
  /** The formats creatives may be of: the standard ones, and those seeded for the account. */
  formats: readonly Format[];
  /** The formats seeded for the account: listed by list_creative_formats whether or not a product takes them. */
  seededFormats: readonly Format[];
}

/** The account a shelf is asked for: a sandbox one may see what the test controller seeded for it. */
export interface ShelfAccount {
  account_id: string;
  sandbox?: unknown;
}

/**
 * The offering as one call sees it: the catalog's, and for a sandbox account also the products,
 * pricing options and formats seeded for it (test-controller's seededShelf). Without an account,
 * or with a production one, it is the catalog's alone and costs no query.
 */
export type Shelf = (db: Queryable, account?: ShelfAccount) => Promise<Offering>;

/**
 * The catalog's products with this deployment's own URLs filled in, and their search index: built
 * on first use, and again only if the base URL changes (it is known once the server listens).
 */
export function offeringOf(
  catalog: Catalog,
  base: () => string,
  standardFormatIds: ReadonlySet<string>,
  formats: () => readonly Format[],
): () => Offering {
  let built: { base: string; offering: Offering } | undefined;
  return () => {
    const url = base();
    if (built?.base !== url) {
      const products = resolveProducts(catalog, url);
      built = {
        base: url,
        offering: {
          products,
          listed: products,
          search: new ProductSearch(products),
          standardFormatIds,
          formats: formats(),
          seededFormats: [],
        },
      };
    }
    return built.offering;
  };
}

/** The catalog's offering whoever asks: a deployment without the test controller. */
export const catalogShelf =
  (offering: () => Offering): Shelf =>
  () =>
    Promise.resolve(offering());
