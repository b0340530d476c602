import type { Queryable } from '../../db/database.ts';
import type { Principal } from '../../auth/index.ts';
import type { Product } from './catalog/index.ts';

/** A property of a buyer's property list, as a product's selectors are matched against it. */
export interface ListedProperty {
  publisher: string;
  propertyId: string | null;
  tags: readonly string[];
}

/** A get_products `property_list` (core/property-list-ref.json). */
export interface PropertyListRef {
  agent_url: string;
  list_id: string;
  auth_token?: string;
}

/**
 * Reads the properties of a list a request references: undefined when the list is not one this
 * seller can read (another agent's: the products are not narrowed, `property_list_applied` false);
 * throws REFERENCE_NOT_FOUND for one it would hold but the caller may not read.
 */
export type PropertyListReader = (
  db: Queryable,
  caller: Principal,
  ref: PropertyListRef,
) => Promise<readonly ListedProperty[] | undefined>;

/**
 * Whether a product sells some property of the list: one of its selectors names a listed property's
 * publisher and takes that property (all of the publisher's, its id, or one of its tags).
 */
export function sellsListed(product: Product, listed: ReadonlyMap<string, readonly ListedProperty[]>): boolean {
  return product.publisher_properties.some((selector) => {
    const properties = listed.get(selector.publisher_domain) ?? [];
    switch (selector.selection_type) {
      case 'all':
        return properties.length > 0;
      case 'by_id':
        return properties.some((p) => p.propertyId !== null && selector.property_ids.includes(p.propertyId));
      case 'by_tag':
        return properties.some((p) => p.tags.some((tag) => selector.property_tags.includes(tag)));
    }
  });
}

/** The listed properties by publisher domain. */
export function byPublisher(properties: readonly ListedProperty[]): Map<string, ListedProperty[]> {
  const groups = new Map<string, ListedProperty[]>();
  for (const p of properties) groups.set(p.publisher, [...(groups.get(p.publisher) ?? []), p]);
  return groups;
}
