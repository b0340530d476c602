import type { Queryable } from '../../db/database.ts';
import { extensionEventTypes, type EventType } from './event-types.ts';

/** An event as the feed serves it: its JSON text, built once by the database, and what we order and filter by. */
export interface EventRow {
  event_id: string;
  event_type: EventType;
  created_at: Date;
  json: string;
}

// The JSON the commit wrote (migration 0053); built here, the same way, only for events written
// before it: key order as in core/registry-event.json, created_at as ISO 8601 UTC with milliseconds.
const eventColumns = `event_id, event_type, created_at, coalesce(json, json_build_object(
  'event_id', event_id, 'event_type', event_type, 'entity_type', entity_type, 'entity_id', entity_id,
  'payload', payload, 'actor', actor,
  'created_at', to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text) as json`;

/**
 * Which events a read takes: the listed types, `default` for a subscription without `types` (every
 * type but the extension types, see event-types.ts), or undefined for every event (the hub and the
 * followers inside the registry).
 */
export type TypeFilter = readonly EventType[] | 'default' | undefined;

function typeCondition(types: TypeFilter, params: unknown[]): string | undefined {
  if (types === undefined) return undefined;
  // The extension types are rare: skipping them on the id-ordered scan costs next to nothing.
  if (types === 'default') return `event_type <> all($${params.push(extensionEventTypes)}::text[])`;
  return `event_type = any($${params.push(types)}::text[])`;
}

/** Events after `cursor` (all when undefined) of the given types, in id order. */
export function eventsAfter(
  db: Queryable,
  cursor: string | undefined,
  types: TypeFilter,
  limit: number,
): Promise<EventRow[]> {
  const where: string[] = [];
  const params: unknown[] = [limit];
  if (cursor !== undefined) where.push(`event_id > $${params.push(cursor)}`);
  const typed = typeCondition(types, params);
  if (typed) where.push(typed);
  return db.query<EventRow>(
    `select ${eventColumns} from registry_events ${where.length ? `where ${where.join(' and ')}` : ''} order by event_id limit $1`,
    params,
  );
}

export async function eventExists(db: Queryable, eventId: string): Promise<boolean> {
  return (await db.query(`select 1 from registry_events where event_id = $1`, [eventId])).length > 0;
}

/** The newest event's id: where a reader that has seen everything stands. */
export async function headEventId(db: Queryable): Promise<string | null> {
  const [row] = await db.query<{ event_id: string }>(
    `select event_id from registry_events order by event_id desc limit 1`,
  );
  return row?.event_id ?? null;
}

/** When the newest event of the given types was emitted. */
export async function latestCreatedAt(db: Queryable, types: TypeFilter): Promise<Date | null> {
  const [row] =
    types === undefined || types === 'default'
      ? await db.query<{ created_at: Date | null }>(
          `select created_at from registry_events ${types === 'default' ? 'where event_type <> all($1::text[])' : ''} order by event_id desc limit 1`,
          types === 'default' ? [extensionEventTypes] : [],
        )
      : // One index probe per type on (event_type, event_id), however old the newest match is.
        await db.query<{ created_at: Date | null }>(
          `select max(e.created_at) as created_at
           from unnest($1::text[]) as t(event_type)
           cross join lateral (select created_at from registry_events r where r.event_type = t.event_type order by event_id desc limit 1) e`,
          [types],
        );
  return row?.created_at ?? null;
}

/**
 * Deletes up to `batch` events emitted before `before`, never the newest event (so a reader that
 * is caught up keeps a valid cursor however quiet the registry is). Returns how many it deleted.
 */
export async function deleteOlderThan(db: Queryable, before: Date, batch: number): Promise<number> {
  // An id's first 48 bits are its millisecond, so the smallest id of that millisecond bounds by age.
  const bound = before.getTime().toString(16).padStart(12, '0');
  const [row] = await db.query<{ deleted: number }>(
    `with gone as (
       delete from registry_events where event_id in (
         select event_id from registry_events
         where event_id < $1::uuid and event_id < (select event_id from registry_events order by event_id desc limit 1)
         order by event_id limit $2)
       returning 1)
     select count(*)::int as deleted from gone`,
    [`${bound.slice(0, 8)}-${bound.slice(8, 12)}-7000-8000-000000000000`, batch],
  );
  return row!.deleted;
}
