import type { PathSegment } from '../../../protocol/json-path.ts';
import { validateSchema } from '../../../protocol/schemas.ts';
import {
  deepFreeze,
  isObject,
  readCatalogDocument,
  reportRepeatedIds,
  rootList,
  type CatalogDocument,
} from '../../catalog-files/index.ts';
import { withAgentUrlsUnder } from './agent-urls.ts';
import type { Catalog, Product } from './types.ts';

export const PRODUCT_SCHEMA_ID = '/schemas/3.0.6/core/product.json';

/** Stands in for this deployment's origin while path-form agent_urls are checked as URIs. */
const placeholderOrigin = 'https://placeholder.invalid';

/**
 * Reads a catalog (YAML, or JSON, which is YAML 1.2) and checks every product against
 * core/product.json plus what a schema cannot say: product ids unique, pricing_option_id unique
 * within its product, fixed and floor price not both given, at least one product.
 * Throws a CatalogError listing every problem with its line, column and path.
 */
export function parseCatalog(text: string, source: string): Catalog {
  const document = readCatalogDocument(text, source);
  const products = rootList(document, 'products', 'product');
  products.forEach((product, index) => checkProduct(document, product, ['products', index]));
  reportRepeatedIds(document.report, products, ['products'], 'product_id');
  document.throwIfProblems();
  return deepFreeze({ source, products: products as Product[] });
}

function checkProduct(document: CatalogDocument, product: unknown, at: readonly PathSegment[]): void {
  document.reportSchemaIssues(
    at,
    validateSchema(PRODUCT_SCHEMA_ID, withAgentUrlsUnder(placeholderOrigin, product)).errors,
  );
  if (!isObject(product) || !Array.isArray(product['pricing_options'])) return;

  const options: unknown[] = product['pricing_options'];
  reportRepeatedIds(document.report, options, [...at, 'pricing_options'], 'pricing_option_id');
  options.forEach((option, index) => {
    if (isObject(option) && option['fixed_price'] !== undefined && option['floor_price'] !== undefined) {
      document.report(
        [...at, 'pricing_options', index, 'floor_price'],
        'must not be given with fixed_price (a floor is for auction pricing)',
      );
    }
  });
}
