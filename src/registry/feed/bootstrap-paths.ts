/**
 * Where a client re-bootstraps after a 410, as this server serves them. The spec (section 7) names
 * `/registry/agents/search`, `/catalog` and `/catalog/collections/sync`, relative to the API: here
 * every registry endpoint, the feed's own included, sits under `/api/registry`, so the catalog does
 * too. The feed registers the catalog routes at these paths and the 410 names them from here, so
 * the message cannot name a path that moved. The agents search is the agents capability's route.
 */
export const bootstrapPaths = {
  agentsSearch: '/api/registry/agents/search',
  catalog: '/api/registry/catalog',
  collectionsSync: '/api/registry/catalog/collections/sync',
  /** Not named by the spec: every section at once (the catalog, collections and authorizations). */
  snapshot: '/api/registry/snapshot',
} as const;
