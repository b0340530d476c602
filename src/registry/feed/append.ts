import { isDeepStrictEqual } from 'node:util';
import type { Queryable } from '../../db/database.ts';
import type { EntityType, EventType } from './event-types.ts';

export interface NewEvent {
  event_type: EventType;
  entity_type: EntityType;
  entity_id: string;
  payload: Record<string, unknown>;
  /** Who caused it, for audit: `api:<principal>`, `pipeline:crawler`, ... */
  actor: string;
}

/** An event about the entity `entityId`, of the entity type its type names, so the two never disagree. */
export function feedEvent(
  type: EventType,
  entityId: string,
  actor: string,
  payload: Record<string, unknown>,
): NewEvent {
  const entity = type.slice(0, type.indexOf('.')) as EntityType;
  return { event_type: type, entity_type: entity, entity_id: entityId, payload, actor };
}

/** The top-level fields whose values differ, sorted: an event's `changed_fields`. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...fields].filter((field) => !isDeepStrictEqual(before[field], after[field])).sort();
}

/**
 * The one way to record a change. Call it with the transaction that makes the change, so the event
 * exists exactly when the change does. The event's id (UUID v7) and `created_at` are given at
 * commit, in commit order (migration 0009), so a reader paging by id never passes an event that
 * has yet to appear.
 */
export async function appendEvent(tx: Queryable, event: NewEvent): Promise<void> {
  await tx.query(
    `insert into registry_events (event_type, entity_type, entity_id, payload, actor) values ($1, $2, $3, $4, $5)`,
    [event.event_type, event.entity_type, event.entity_id, JSON.stringify(event.payload), event.actor],
  );
}

/** Several events in one statement, in order (their ids follow that order at commit). */
export async function appendEvents(tx: Queryable, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.query(
    `insert into registry_events (event_type, entity_type, entity_id, payload, actor)
     select e->>'event_type', e->>'entity_type', e->>'entity_id', e->'payload', e->>'actor'
     from jsonb_array_elements($1::jsonb) with ordinality as t(e, n) order by t.n`,
    [JSON.stringify(events)],
  );
}
