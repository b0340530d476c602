import type { ListKind } from '../lists/index.ts';
import { identifiersOf, resolveList, type Identifier } from './resolve-list.ts';

/** Property lists (property/*.json): the registry's properties, answered as their identifiers. */
export const propertyLists: ListKind = {
  noun: 'property',
  members: 'properties',
  schemas: 'property',
  idPrefix: 'pl_',
  sourcesField: 'base_properties',
  sourcesHelp:
    'property/base-property-source.json: {selection_type: publisher_tags, publisher_domain, tags} | {selection_type: publisher_ids, publisher_domain, property_ids} | {selection_type: identifiers, identifiers}. Every registry property when absent.',
  filtersHelp: 'property/property-list-filters.json: property_types, exclude_identifiers…',
  described: true,
  itemsField: 'identifiers',
  countField: 'property_count',
  cacheHours: 1,
  resolve(index, definition) {
    const members = resolveList(index, definition);
    return { count: members.length, items: identifiersOf(index, members) };
  },
  itemKey: (item) => `${(item as Identifier).type}\u0000${(item as Identifier).value}`,
};
