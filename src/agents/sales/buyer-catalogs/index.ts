export { catalogItems, matchCatalog, type CatalogMatch } from './match-catalog.ts';
export type { BuyerCatalog } from './items.ts';
export { syncCatalogsTask } from './sync-catalogs.ts';
