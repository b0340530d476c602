import { isDeepStrictEqual } from 'node:util';
import type { Queryable } from '../../db/database.ts';
import { announceResolution, resolutionSnapshot, snapshotAt, type ResolutionChange } from '../entries/index.ts';
import { appendEvent, feedEvent } from '../feed/index.ts';
import { snapshot, toResolution } from './rows.ts';
import { entriesPageById, propertyTables, type PropertyRow } from './sql.ts';

/**
 * One event per real change: `property.created` for a new entry, `property.updated` naming what
 * changed since the previous revision (none when nothing did); and, for every write, what resolve
 * now answers (`resolution.property_updated`). Call after inserting the revision.
 */
export async function recordChange(tx: Queryable, after: PropertyRow, actor: string): Promise<void> {
  await recordResolution(tx, after, actor);
  const before = after.revision > 1 ? await snapshotAt(tx, propertyTables, after.id, after.revision - 1) : undefined;
  const now = snapshot(after);
  const common = {
    property_rid: after.id,
    source: after.source === 'adagents_json' ? 'authoritative' : 'contributed',
    identifiers: [{ type: 'domain', value: after.publisher_domain }],
    publisher_domain: after.publisher_domain,
    // The whole entry after the change, as the snapshot and resolve serve it, so a mirror applies it as is.
    entry: toResolution(after),
  };
  if (!before) {
    await appendEvent(tx, feedEvent('property.created', after.id, actor, { ...common, classification: 'property' }));
    return;
  }
  const changed = (['source', 'authorized_agents', 'inventory', 'contact'] as const).filter(
    (f) => !isDeepStrictEqual(before[f] ?? null, now[f] ?? null),
  );
  if (changed.length === 0) return;
  const changed_fields = changed.map((f) => (f === 'inventory' ? 'properties' : f));
  await appendEvent(tx, feedEvent('property.updated', after.id, actor, { ...common, changed_fields }));
}

/** Tells the feed what resolve now answers for the entry's domain; call it after every write of an entry. */
export async function recordResolution(tx: Queryable, row: PropertyRow, actor: string): Promise<void> {
  await announceResolution(tx, change(row), actor);
}

/** Every entry, community or authoritative, as its `resolution.property_updated` event carries it, for the registry snapshot. */
export const propertyResolutions = resolutionSnapshot(async (db, after, limit) =>
  (await entriesPageById(db, after, limit)).map(change),
);

function change(row: PropertyRow): ResolutionChange {
  return { kind: 'property', id: row.id, domain: row.publisher_domain, resolution: toResolution(row) };
}
