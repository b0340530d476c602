import type { AuthorizationIndex, IndexedCollection } from '../../../registry/lookups/index.ts';

interface DistributionId {
  type: string;
  value: string;
}

interface ContentRating {
  system: string;
  rating: string;
}

/** collection/base-collection-source.json. */
export type BaseCollectionSource =
  | { selection_type: 'distribution_ids'; identifiers: DistributionId[] }
  | { selection_type: 'publisher_collections'; publisher_domain: string; collection_ids: string[] }
  | { selection_type: 'publisher_genres'; publisher_domain: string; genres: string[]; genre_taxonomy: string };

/** What a collection list says of its members (create-collection-list-request.json). */
export interface CollectionListDefinition {
  base_collections?: BaseCollectionSource[];
  filters?: {
    content_ratings_exclude?: ContentRating[];
    content_ratings_include?: ContentRating[];
    genres_exclude?: string[];
    genres_include?: string[];
    genre_taxonomy?: string;
    kinds?: string[];
    exclude_distribution_ids?: DistributionId[];
    production_quality?: string[];
  };
}

/** A resolved collection as get-collection-list-response.json lists it. */
export interface ListedCollection {
  collection_rid: string;
  name: string;
  distribution_ids: DistributionId[];
  content_rating?: ContentRating;
  genre?: string[];
  genre_taxonomy?: string;
  kind?: string;
}

/**
 * The registry's collections a list holds now, read from the authorization index in memory: those
 * its sources name (every collection when it names none), still in their publisher's catalog and
 * with a current adagents.json, narrowed by its filters (an include filter first, then the
 * exclude of the same dimension). A collection that declares nothing for a filtered dimension
 * stays in and is named in `coverage_gaps` under that dimension, as is a source's distribution
 * identifier no collection carries (under `distribution_ids`): the buyer learns what could not be
 * confirmed instead of losing it silently. Each candidate is found through the index's maps.
 */
export function resolveCollections(
  index: AuthorizationIndex,
  list: CollectionListDefinition,
): { members: IndexedCollection[]; gaps: Record<string, DistributionId[]> } {
  const keep = filterOf(list.filters ?? {});
  const gaps = new Map<string, DistributionId[]>();
  const gap = (dimension: string, ids: DistributionId[]) => {
    if (ids.length === 0) return;
    let listed = gaps.get(dimension);
    if (!listed) gaps.set(dimension, (listed = []));
    listed.push(...ids);
  };
  const members: IndexedCollection[] = [];
  const seen = new Set<IndexedCollection>();
  const consider = (collection: IndexedCollection) => {
    if (seen.has(collection)) return;
    seen.add(collection);
    if (collection.removed || index.publisher(collection.publisher)?.stale) return;
    const verdict = keep(collection);
    if (verdict === false) return;
    members.push(collection);
    for (const dimension of verdict) gap(dimension, collection.distributionIds);
  };
  const sources = list.base_collections;
  if (!sources?.length) for (const collection of index.allCollections()) consider(collection);
  else
    for (const source of sources) {
      if (source.selection_type !== 'distribution_ids') {
        for (const collection of candidates(index, source)) consider(collection);
        continue;
      }
      for (const id of source.identifiers) {
        const found = index.collectionsByDistribution(id.type, id.value);
        if (found.length === 0) gap('distribution_ids', [{ type: id.type, value: id.value }]);
        for (const collection of found) consider(collection);
      }
    }
  return { members, gaps: Object.fromEntries(gaps) };
}

export function listedCollection(collection: IndexedCollection): ListedCollection {
  return {
    collection_rid: collection.rid,
    name: collection.name,
    distribution_ids: collection.distributionIds,
    ...(collection.contentRating ? { content_rating: collection.contentRating } : {}),
    ...(collection.genres ? { genre: collection.genres } : {}),
    ...(collection.genreTaxonomy ? { genre_taxonomy: collection.genreTaxonomy } : {}),
    ...(collection.kind ? { kind: collection.kind } : {}),
  };
}

function candidates(
  index: AuthorizationIndex,
  source: Exclude<BaseCollectionSource, { selection_type: 'distribution_ids' }>,
): IndexedCollection[] {
  const ofPublisher = index.collectionsOfPublisher(source.publisher_domain);
  if (source.selection_type === 'publisher_collections') {
    const ids = new Set(source.collection_ids);
    return ofPublisher.filter((c) => ids.has(c.collectionId));
  }
  const genres = new Set(source.genres);
  return ofPublisher.filter(
    (c) => c.genreTaxonomy === source.genre_taxonomy && (c.genres ?? []).some((g) => genres.has(g)),
  );
}

/**
 * The filters as one test: false when a collection is out, else the dimensions it was kept on
 * without declaring them (its coverage gaps). A genre filter with a taxonomy judges only the
 * collections that declare their genres in it; one in another taxonomy is a gap, not a match.
 */
function filterOf(
  filters: NonNullable<CollectionListDefinition['filters']>,
): (collection: IndexedCollection) => false | string[] {
  const ratingKey = (r: ContentRating) => `${r.system}\u0000${r.rating}`;
  const set = <T>(values: T[] | undefined, key: (v: T) => string) =>
    values?.length ? new Set(values.map(key)) : undefined;
  const ratingsIn = set(filters.content_ratings_include, ratingKey);
  const ratingsOut = set(filters.content_ratings_exclude, ratingKey);
  const genresIn = set(filters.genres_include, String);
  const genresOut = set(filters.genres_exclude, String);
  const kinds = set(filters.kinds, String);
  const qualities = set(filters.production_quality, String);
  const excluded = set(filters.exclude_distribution_ids, (i) => `${i.type}\u0000${i.value}`);
  const taxonomy = filters.genre_taxonomy;
  return (collection) => {
    const gaps: string[] = [];
    if (excluded && collection.distributionIds.some((i) => excluded.has(`${i.type}\u0000${i.value}`))) return false;
    if (kinds && !(collection.kind !== null && kinds.has(collection.kind))) return false;
    if (ratingsIn || ratingsOut) {
      const rating = collection.contentRating && ratingKey(collection.contentRating);
      if (rating === undefined || rating === null) gaps.push('content_rating');
      else if ((ratingsIn && !ratingsIn.has(rating)) || ratingsOut?.has(rating)) return false;
    }
    if (genresIn || genresOut) {
      const genres = collection.genres;
      const comparable = genres?.length && (taxonomy === undefined || collection.genreTaxonomy === taxonomy);
      if (!comparable) gaps.push('genre');
      else if ((genresIn && !genres.some((g) => genresIn.has(g))) || genres.some((g) => genresOut?.has(g)))
        return false;
    }
    if (qualities) {
      if (collection.productionQuality === null) gaps.push('production_quality');
      else if (!qualities.has(collection.productionQuality)) return false;
    }
    return gaps;
  };
}
