import type { AuthorizationIndex } from '../../../registry/lookups/index.ts';

/** What a list says of its members, as its request gave them: its sources (under the kind's field), filters and brand. */
export type ListDefinition = { filters?: Record<string, unknown>; brand?: Record<string, unknown> } & Record<
  string,
  unknown
>;

/** A list resolved against the registry's index at one moment. */
export interface Resolution {
  /** How many members it has (`property_count`, `collection_count`). */
  count: number;
  /** What its pages list, in order: its properties' identifiers, or its collections. */
  items: readonly unknown[];
  /** Said beside every page (a collection list's `coverage_gaps`). */
  beside?: Record<string, unknown>;
}

/**
 * What makes property lists (property/*.json) and collection lists (collection/*.json) differ:
 * the same five tasks, token and changed-webhook serve both, over the registry's properties or
 * its collections.
 */
export interface ListKind {
  /** As tool names and events spell it: `create_${noun}_list`, `${noun}_list_changed`. */
  noun: 'property' | 'collection';
  /** What its members are called in prose and in `total_${members}`. */
  members: 'properties' | 'collections';
  /** The published schemas' folder. */
  schemas: 'property' | 'collection';
  idPrefix: string;
  /** The request's and the list's field naming its sources. */
  sourcesField: 'base_properties' | 'base_collections';
  /** How the tools list describes the sources and the filters (the published request decides). */
  sourcesHelp: string;
  filtersHelp: string;
  /** Whether its lists carry a `description` (collection lists have none). */
  described: boolean;
  /** A resolved page's field, and the list's count field. */
  itemsField: 'identifiers' | 'collections';
  countField: 'property_count' | 'collection_count';
  /** How long a consumer may keep a resolved list (`cache_duration_hours`). */
  cacheHours: number;
  resolve(index: AuthorizationIndex, definition: ListDefinition): Resolution;
  /** An item as the changed-webhook's record of a resolution compares it. */
  itemKey(item: unknown): string;
}
