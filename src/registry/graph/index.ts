/**
 * The catalog graph: publishers, their properties and collections, and the agents they authorize,
 * as the crawler projects them from adagents.json and brand.json. The crawler writes it through
 * `applyAdagents`/`applyBrandJson` (and `touchIfCurrent` when a publisher's server says its file is unchanged); mirrors read it through the feed, which pages through
 * `graphSnapshot` (the catalog and the collections sync through its parts). No routes or jobs of its
 * own yet, so no plugin.
 */
export { applyAdagents, markStale, type ApplySummary } from './apply-adagents.ts';
export { applyBrandJson } from './apply-brand-json.ts';
export { operatorSide, type DeclaredAgent } from './operator-side.ts';
export { projectAdagents, type AdagentsProjection } from './project-adagents.ts';
export { projectBrandJson, type BrandJsonProjection } from './project-brand-json.ts';
export { touchIfCurrent } from './sql/publishers.ts';
export { graphCatalogSnapshot, graphCollectionsSnapshot, graphSnapshot } from './snapshot.ts';
