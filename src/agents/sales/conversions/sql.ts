import type { Queryable } from '../../../db/database.ts';

export interface EventSourceRow {
  account_id: string;
  event_source_id: string;
  source: Record<string, unknown> & {
    event_source_id: string;
    name?: string;
    event_types?: string[];
    allowed_domains?: string[];
  };
  created_at: Date;
  updated_at: Date;
}

const sourceColumns = 's.account_id, s.event_source_id, s.source, s.created_at, s.updated_at';

export async function eventSourcesOf(db: Queryable, accountId: string): Promise<EventSourceRow[]> {
  return db.query<EventSourceRow>(
    `select ${sourceColumns} from sales_event_sources s where s.account_id = $1 order by s.event_source_id`,
    [accountId],
  );
}

/** The caller's event sources of this id, on any of its accounts (log_event names no account). */
export async function ownedEventSources(
  db: Queryable,
  owner: string,
  eventSourceId: string,
): Promise<(EventSourceRow & { sandbox: boolean })[]> {
  return db.query<EventSourceRow & { sandbox: boolean }>(
    `select ${sourceColumns}, a.sandbox from sales_event_sources s join sales_accounts a on a.account_id = s.account_id where a.owner = $1 and s.event_source_id = $2 order by s.account_id`,
    [owner, eventSourceId],
  );
}

export async function upsertEventSource(db: Queryable, row: EventSourceRow): Promise<void> {
  await db.query(
    `insert into sales_event_sources (account_id, event_source_id, source, created_at, updated_at) values ($1, $2, $3, $4, $5)
     on conflict (account_id, event_source_id) do update set source = excluded.source, updated_at = excluded.updated_at`,
    [row.account_id, row.event_source_id, JSON.stringify(row.source), row.created_at, row.updated_at],
  );
}

export async function deleteEventSource(db: Queryable, accountId: string, eventSourceId: string): Promise<void> {
  await db.query(`delete from sales_event_sources where account_id = $1 and event_source_id = $2`, [
    accountId,
    eventSourceId,
  ]);
}

export interface EventRow {
  event_id: string;
  event_type: string;
  event_time: string;
  event: Record<string, unknown>;
}

/** Records events in one statement, each event_id once; answers the ids that were new. */
export async function insertEvents(
  db: Queryable,
  accountId: string,
  eventSourceId: string,
  events: readonly EventRow[],
  at: Date,
): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = await db.query<{ event_id: string }>(
    `insert into sales_events (account_id, event_source_id, event_id, event_type, event_time, event, received_at)
     select $1, $2, e.event_id, e.event_type, e.event_time::timestamptz, e.event, $3 from jsonb_to_recordset($4::jsonb) as e(event_id text, event_type text, event_time text, event jsonb)
     on conflict do nothing returning event_id`,
    [accountId, eventSourceId, at, JSON.stringify(events)],
  );
  return rows.map((r) => r.event_id);
}

export async function countEvents(db: Queryable, accountId: string, eventSourceId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from sales_events where account_id = $1 and event_source_id = $2`,
    [accountId, eventSourceId],
  );
  return row?.n ?? 0;
}

/** The caller's buy (its id, account and package ids); undefined when it has none of this id. */
export async function ownedBuy(
  db: Queryable,
  owner: string,
  mediaBuyId: string,
): Promise<{ media_buy_id: string; sandbox: boolean; package_ids: string[] } | undefined> {
  const [row] = await db.query<{ media_buy_id: string; sandbox: boolean; package_ids: string[] | null }>(
    `select b.media_buy_id, b.sandbox, array_remove(array_agg(p.package_id), null) as package_ids
     from sales_media_buys b left join sales_media_buy_packages p on p.media_buy_id = b.media_buy_id
     where b.owner = $1 and b.media_buy_id = $2 group by b.media_buy_id, b.sandbox`,
    [owner, mediaBuyId],
  );
  return row && { ...row, package_ids: row.package_ids ?? [] };
}

export interface FeedbackRow {
  media_buy_id: string;
  package_id: string | null;
  creative_id: string | null;
  period_start: string;
  period_end: string;
  performance_index: number;
  metric_type: string;
  feedback_source: string;
  received_at: Date;
}

export async function insertFeedback(db: Queryable, row: FeedbackRow): Promise<void> {
  await db.query(
    `insert into sales_performance_feedback (media_buy_id, package_id, creative_id, period_start, period_end, performance_index, metric_type, feedback_source, received_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      row.media_buy_id,
      row.package_id,
      row.creative_id,
      row.period_start,
      row.period_end,
      row.performance_index,
      row.metric_type,
      row.feedback_source,
      row.received_at,
    ],
  );
}
