import type { PropertyRow } from './sql.ts';

/** A property entry as resolve, the listing, the snapshot and its feed events show it. */
export function toEntry(row: PropertyRow) {
  return {
    id: row.id,
    publisher_domain: row.publisher_domain,
    source: row.source,
    status: row.status,
    authorized_agents: row.authorized_agents,
    properties: row.inventory,
    ...(row.contact ? { contact: row.contact } : {}),
    revision_number: row.revision,
    updated_at: row.updated_at.toISOString(),
  };
}

/** What a revision keeps of an entry; a rollback restores it. */
export function snapshot(row: PropertyRow): Record<string, unknown> {
  // Same shape as it reads back from jsonb, so snapshots compare field by field.
  return { publisher_domain: row.publisher_domain, source: row.source, authorized_agents: row.authorized_agents, inventory: row.inventory, contact: row.contact };
}
