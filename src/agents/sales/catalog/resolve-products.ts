import { deepFreeze } from '../../catalog-files/index.ts';
import { withAgentUrlsUnder } from './agent-urls.ts';
import type { Catalog, Product } from './types.ts';

// A deployment has one base URL, so remembering the last one per catalog is enough.
const resolved = new WeakMap<Catalog, { baseUrl: string; products: readonly Product[] }>();

/**
 * The catalog's products with every path-form format agent_url made absolute against `baseUrl`
 * (`https://host` + `/creative/mcp`); absolute ones are left alone. Deep-frozen and shared
 * between calls with the same base URL.
 */
export function resolveProducts(catalog: Catalog, baseUrl: string): readonly Product[] {
  const last = resolved.get(catalog);
  if (last?.baseUrl === baseUrl) return last.products;
  const products = deepFreeze(catalog.products.map((product) => withAgentUrlsUnder(baseUrl, product) as Product));
  resolved.set(catalog, { baseUrl, products });
  return products;
}
