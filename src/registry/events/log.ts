import { v7 as uuidv7 } from 'uuid';
import type { Queryable } from '../../db/database.ts';

/** The event types of the registry change feed. */
export type EventType =
  | 'property.created'
  | 'property.updated'
  | 'property.merged'
  | 'property.stale'
  | 'property.reactivated'
  | 'collection.created'
  | 'collection.updated'
  | 'collection.merged'
  | 'collection.removed'
  | 'agent.discovered'
  | 'agent.removed'
  | 'agent.profile_updated'
  | 'agent.compliance_changed'
  | 'agent.verification_earned'
  | 'agent.verification_lost'
  | 'publisher.adagents_discovered'
  | 'publisher.adagents_changed'
  | 'authorization.granted'
  | 'authorization.revoked'
  | 'authorization.modified';

export type EntityType = 'property' | 'collection' | 'agent' | 'publisher' | 'authorization';

export interface NewEvent {
  event_type: EventType;
  entity_type: EntityType;
  entity_id: string;
  payload: Record<string, unknown>;
  /** Who caused it, for audit: `api:<principal>`, `pipeline:crawler`, ... */
  actor: string;
}

/**
 * The one way to record a change. Call it with the transaction that makes the change, so the event
 * exists exactly when the change does. Returns the event id (UUID v7).
 */
export async function appendEvent(tx: Queryable, event: NewEvent): Promise<string> {
  const eventId = uuidv7();
  await tx.query(
    `insert into registry_events (event_id, event_type, entity_type, entity_id, payload, actor)
     values ($1, $2, $3, $4, $5, $6)`,
    [eventId, event.event_type, event.entity_type, event.entity_id, JSON.stringify(event.payload), event.actor],
  );
  return eventId;
}
