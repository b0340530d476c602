import { validateSchema } from '../../../protocol/schemas.ts';

/** core/catalog.json as this seller reads it; the index signature carries the rest through. */
export interface BuyerCatalog {
  catalog_id?: string;
  name?: string;
  type: string;
  url?: string;
  items?: Record<string, unknown>[];
  ids?: string[];
  gtins?: string[];
  tags?: string[];
  category?: string;
  query?: string;
  [more: string]: unknown;
}

/** What identifies an item of each catalog type (the vertical item schemas require it); freeform types take the first present. */
const idKeys: Record<string, readonly string[]> = {
  offering: ['offering_id'],
  store: ['store_id'],
  hotel: ['hotel_id'],
  flight: ['flight_id'],
  job: ['job_id'],
  vehicle: ['vehicle_id'],
  real_estate: ['listing_id'],
  education: ['program_id'],
  destination: ['destination_id'],
  app: ['app_id'],
};
const freeformIdKeys = ['item_id', 'id', 'sku', 'product_id', 'offer_id', 'gtin'];

/** The published schema each vertical type's items meet (core/catalog.json: "Implementations should validate items against the type-specific schema"). */
const itemSchemas: Record<string, string> = {
  offering: '/schemas/3.0.6/core/offering.json',
  store: '/schemas/3.0.6/core/store-item.json',
  hotel: '/schemas/3.0.6/core/hotel-item.json',
  flight: '/schemas/3.0.6/core/flight-item.json',
  job: '/schemas/3.0.6/core/job-item.json',
  vehicle: '/schemas/3.0.6/core/vehicle-item.json',
  real_estate: '/schemas/3.0.6/core/real-estate-item.json',
  education: '/schemas/3.0.6/core/education-item.json',
  destination: '/schemas/3.0.6/core/destination-item.json',
  app: '/schemas/3.0.6/core/app-item.json',
};

/** An item's id, as a string; undefined when it has none. */
export function itemId(type: string, item: Record<string, unknown>): string | undefined {
  for (const key of idKeys[type] ?? freeformIdKeys) {
    const value = item[key];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

/** Why an item cannot be used (no id, or not its type's published item schema); undefined when it can. */
export function itemProblem(type: string, item: Record<string, unknown>): string | undefined {
  const schema = itemSchemas[type];
  if (schema) {
    const first = validateSchema(schema, item).errors[0];
    if (first) return `${first.path.replace(/^\$\.?/, '') || 'item'} ${first.message}`;
  }
  if (itemId(type, item) === undefined)
    return `A ${type} item needs an id (${(idKeys[type] ?? freeformIdKeys).join(' or ')}).`;
  return undefined;
}

const maxQueryWords = 20;

/**
 * The items a catalog's selectors keep (core/catalog.json): `ids` and `gtins` by identifier,
 * `tags` any of them (OR), `category` as the item's category or a sub-category of it, `query`
 * any of its first words found in the item's text. No selector keeps every item.
 */
export function selectItems(
  catalog: BuyerCatalog,
  items: readonly Record<string, unknown>[],
): Record<string, unknown>[] {
  const ids = catalog.ids && new Set(catalog.ids);
  const gtins = catalog.gtins && new Set(catalog.gtins);
  const tags = catalog.tags && new Set(catalog.tags);
  const words = catalog.query
    ?.toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1)
    .slice(0, maxQueryWords);
  return items.filter((item) => {
    if (ids && !ids.has(itemId(catalog.type, item) ?? '')) return false;
    if (gtins && !gtins.has(String(item['gtin'] ?? ''))) return false;
    if (tags && !(Array.isArray(item['tags']) && item['tags'].some((t) => tags.has(String(t))))) return false;
    if (catalog.category !== undefined) {
      const category = String(item['category'] ?? '');
      if (category !== catalog.category && !category.startsWith(`${catalog.category}/`)) return false;
    }
    if (words?.length) {
      const text = JSON.stringify(item).toLowerCase();
      if (!words.some((w) => text.includes(w))) return false;
    }
    return true;
  });
}
