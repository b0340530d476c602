/**
 * The sales agent's product catalog: a YAML or JSON file of core/product.json objects, checked
 * in full when it is loaded so a mistake stops the start with its line, not a buyer's call.
 */
export { CatalogError, type CatalogProblem } from '../../catalog-files/index.ts';
export { demoCatalogPath } from './demo-catalog.ts';
export { loadCatalogFile } from './load-catalog-file.ts';
export { parseCatalog, PRODUCT_SCHEMA_ID } from './parse-catalog.ts';
export { resolveProducts } from './resolve-products.ts';
export type { Catalog, FormatId, PricingModel, PricingOption, Product, PublisherPropertySelector } from './types.ts';
