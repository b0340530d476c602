import { resolveProducts, type Catalog, type Product } from './catalog/index.ts';
import { ProductSearch } from './product-search.ts';

/** A product chosen for an answer, with why it fits the brief when one was given. */
export interface Chosen {
  product: Product;
  relevance?: string;
}

/** What the sales agent sells, as answered at one base URL, with its search index. */
export interface Offering {
  products: readonly Product[];
  search: ProductSearch;
  /** Ids of the standard formats (filters.standard_formats_only). */
  standardFormatIds: ReadonlySet<string>;
}

/**
 * The catalog's products with this deployment's own URLs filled in, and their search index: built
 * on first use, and again only if the base URL changes (it is known once the server listens).
 */
export function offeringOf(catalog: Catalog, base: () => string, standardFormatIds: ReadonlySet<string>): () => Offering {
  let built: { base: string; offering: Offering } | undefined;
  return () => {
    const url = base();
    if (built?.base !== url) {
      const products = resolveProducts(catalog, url);
      built = { base: url, offering: { products, search: new ProductSearch(products), standardFormatIds } };
    }
    return built.offering;
  };
}
