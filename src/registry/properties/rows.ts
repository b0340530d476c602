import type { PropertyRow } from './sql.ts';

/** A property entry's own fields; what resolve, the listing, the snapshot and the feed show adds to them. */
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

/**
 * Whether the entry is the publisher's own word as last read: from its adagents.json, and that
 * file still there and valid (a stale entry's file is gone or broken).
 */
export function verified(row: Pick<PropertyRow, 'source' | 'status'>): boolean {
  return row.source === 'adagents_json' && row.status === 'active';
}

/**
 * What resolve and bulk resolve answer, and what the feed's property events and snapshot carry (so a
 * mirror applies it as is): the entry, and `verified` as the protocol's registry client reads it.
 */
export function toResolution(row: PropertyRow) {
  return { ...toEntry(row), verified: verified(row) };
}

/** A listed entry: its resolution, and the summary fields the protocol's registry client reads of a listed item. */
export function toListed(row: PropertyRow) {
  return {
    ...toResolution(row),
    domain: row.publisher_domain,
    property_count: row.inventory.length,
    agent_count: row.authorized_agents.length,
  };
}

/** What a revision keeps of an entry; a rollback restores it. */
export function snapshot(row: PropertyRow): Record<string, unknown> {
  // Same shape as it reads back from jsonb, so snapshots compare field by field.
  return {
    publisher_domain: row.publisher_domain,
    source: row.source,
    authorized_agents: row.authorized_agents,
    inventory: row.inventory,
    contact: row.contact,
  };
}
