import type { ListKind } from '../lists/index.ts';
import { listedCollection, resolveCollections, type ListedCollection } from './resolve-collections.ts';

/** Collection lists (collection/*.json): the registry's collections, answered whole, with the coverage gaps. */
export const collectionLists: ListKind = {
  noun: 'collection',
  members: 'collections',
  schemas: 'collection',
  idPrefix: 'cl_',
  sourcesField: 'base_collections',
  sourcesHelp:
    'collection/base-collection-source.json: {selection_type: distribution_ids, identifiers} | {selection_type: publisher_collections, publisher_domain, collection_ids} | {selection_type: publisher_genres, publisher_domain, genres, genre_taxonomy}. Every registry collection when absent.',
  filtersHelp:
    'collection/collection-list-filters.json: content_ratings_include/exclude, genres_include/exclude, genre_taxonomy, kinds, exclude_distribution_ids, production_quality.',
  described: false,
  itemsField: 'collections',
  countField: 'collection_count',
  // The documentation's default: collection metadata changes less often than properties'.
  cacheHours: 168,
  resolve(index, definition) {
    const { members, gaps } = resolveCollections(index, definition);
    return {
      count: members.length,
      items: members.map(listedCollection),
      ...(Object.keys(gaps).length > 0 ? { beside: { coverage_gaps: gaps } } : {}),
    };
  },
  itemKey: (item) => (item as ListedCollection).collection_rid,
};
