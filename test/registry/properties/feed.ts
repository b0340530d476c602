import assert from 'node:assert/strict';
import type { Queryable } from '../../../src/db/database.ts';
import { REGISTRY_EVENT_SCHEMA_ID, validateSchema } from '../../../src/protocol/schemas.ts';

/** What the property suites read back from the tables: revisions and change-feed events. */

export interface EventRow {
  event_id: string;
  event_type: string;
  entity_type: string;
  entity_id: string;
  payload: Record<string, unknown>;
  actor: string;
  created_at: Date;
}

/** Every feed event about one property entry, oldest first (event ids are UUID v7). */
export function eventsOf(db: Queryable, entityId: string): Promise<EventRow[]> {
  return db.query<EventRow>(
    `select event_id, event_type, entity_type, entity_id, payload, actor, created_at
     from registry_events where entity_type = 'property' and entity_id = $1 order by event_id`,
    [entityId],
  );
}

/** How many revision rows and feed events exist in all, to show a rejected request wrote neither. */
export async function writeCounts(db: Queryable): Promise<{ revisions: number; events: number }> {
  const [row] = await db.query<{ revisions: number; events: number }>(
    'select (select count(*)::int from property_revisions) as revisions, (select count(*)::int from registry_events) as events',
  );
  return row!;
}

/** A stored event as the feed serves it (`core/registry-event.json`), checked against the schema. */
export function assertValidEvent(row: EventRow): Record<string, unknown> {
  const event = { ...row, entity_id: String(row.entity_id), created_at: row.created_at.toISOString() };
  const result = validateSchema(REGISTRY_EVENT_SCHEMA_ID, event);
  assert.deepEqual(result.errors, [], `${row.event_type} ${JSON.stringify(row.payload)}`);
  assert.equal(result.valid, true);
  assert.match(event.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  return event;
}
