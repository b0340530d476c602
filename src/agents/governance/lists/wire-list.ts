import type { ListKind } from './kind.ts';
import type { ListRow } from './sql.ts';

/** A stored list as property/property-list.json or collection/collection-list.json shows it, with its size when just resolved. */
export function wireList(kind: ListKind, row: ListRow, count?: number): Record<string, unknown> {
  const { [kind.sourcesField]: sources, filters, brand } = row.definition;
  return {
    list_id: row.list_id,
    name: row.name,
    ...(kind.described && row.description !== null ? { description: row.description } : {}),
    ...(sources ? { [kind.sourcesField]: sources } : {}),
    ...(filters ? { filters } : {}),
    ...(brand ? { brand } : {}),
    ...(row.webhook_url ? { webhook_url: row.webhook_url } : {}),
    cache_duration_hours: kind.cacheHours,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ...(count === undefined ? {} : { [kind.countField]: count }),
  };
}
