import type { ListRow } from './sql.ts';

/** How long a consumer may keep a resolved list before fetching it again (`cache_duration_hours`). */
export const cacheHours = 1;

/** A stored list as property/property-list.json shows it, with its size when it was just resolved. */
export function wireList(row: ListRow, propertyCount?: number): Record<string, unknown> {
  const { base_properties, filters, brand } = row.definition;
  return {
    list_id: row.list_id,
    name: row.name,
    ...(row.description !== null ? { description: row.description } : {}),
    ...(base_properties ? { base_properties } : {}),
    ...(filters ? { filters } : {}),
    ...(brand ? { brand } : {}),
    ...(row.webhook_url ? { webhook_url: row.webhook_url } : {}),
    cache_duration_hours: cacheHours,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ...(propertyCount === undefined ? {} : { property_count: propertyCount }),
  };
}
