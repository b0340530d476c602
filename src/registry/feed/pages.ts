import type { Static } from 'typebox';
import type { Clock } from '../../clock.ts';
import type { Queryable } from '../../db/database.ts';
import { ApError } from '../../protocol/errors.ts';
import { bootstrapPaths } from './bootstrap-paths.ts';
import { parseTypes, type EventType } from './event-types.ts';
import type { FeedQuery } from './schemas.ts';
import * as sql from './sql.ts';
import type { EventRow } from './sql.ts';

export interface PageRequest {
  /** The last event id the reader has; undefined starts at the earliest retained event. */
  cursor: string | undefined;
  /** The event types subscribed to; undefined for the default subscription (the published types). */
  types: readonly EventType[] | undefined;
  limit: number;
}

/** What a page of the feed or its stream asks for: the cursor as event ids are stored (lowercase), the types expanded. */
export function pageRequestOf(query: Static<typeof FeedQuery>): PageRequest {
  return { cursor: query.cursor?.toLowerCase(), types: parseTypes(query.types), limit: query.limit ?? 100 };
}

export interface Freshness {
  generated_at: string;
  latest_event_created_at: string | null;
  lag_seconds: number | null;
  retention_days: number;
}

export interface Page {
  events: EventRow[];
  /** Where the next page starts: the last event returned, else the cursor given (null only when neither exists). */
  cursor: string | null;
  has_more: boolean;
  freshness: Freshness;
}

export interface FeedSettings {
  clock: Clock;
  retentionDays: number;
}

/** Worded as the spec's 410: re-bootstrap from the agents search, the catalog and the collections sync. */
const expiredMessage = (retentionDays: number) =>
  `The cursor is older than the ${retentionDays}-day retention window or unknown. Re-bootstrap from ` +
  `${bootstrapPaths.agentsSearch}, ${bootstrapPaths.catalog} and ${bootstrapPaths.collectionsSync} (load every page, ` +
  'following next_page_token), then resume the feed from the earliest cursor those pages returned. ' +
  `${bootstrapPaths.snapshot} pages through every entity the feed describes, authorizations included, in one pass.`;

/** A cursor is good while its event is retained; anything else answers 410 with the way back. */
export async function checkCursor(db: Queryable, settings: FeedSettings, cursor: string | undefined): Promise<void> {
  if (cursor !== undefined && !(await sql.eventExists(db, cursor))) {
    throw new ApError('cursor_expired', expiredMessage(settings.retentionDays));
  }
}

/** One page of the feed after `cursor`, in id order: the rows and what the response says about them. */
export async function readPage(db: Queryable, settings: FeedSettings, request: PageRequest): Promise<Page> {
  const [rows, latest] = await Promise.all([
    sql.eventsAfter(db, request.cursor, request.types ?? 'default', request.limit + 1),
    sql.latestCreatedAt(db, request.types ?? 'default'),
  ]);
  const events = rows.slice(0, request.limit);
  return {
    events,
    cursor: events.at(-1)?.event_id ?? request.cursor ?? null,
    has_more: rows.length > request.limit,
    freshness: freshness(settings, latest),
  };
}

export function freshness(settings: FeedSettings, latest: Date | null): Freshness {
  const now = settings.clock.now();
  return {
    generated_at: now.toISOString(),
    latest_event_created_at: latest?.toISOString() ?? null,
    lag_seconds: latest ? Math.max(0, Math.floor((now.getTime() - latest.getTime()) / 1000)) : null,
    retention_days: settings.retentionDays,
  };
}

/** The page as JSON text: the events' JSON comes from the database and is joined, not re-encoded. */
export function renderPage(page: Page): string {
  const events = page.events.map((e) => e.json).join(',');
  return `{"events":[${events}],"cursor":${JSON.stringify(page.cursor)},"has_more":${page.has_more},"freshness":${JSON.stringify(page.freshness)}}`;
}
