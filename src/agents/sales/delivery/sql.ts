import type { Queryable } from '../../../db/database.ts';
import type { MediaBuyStatus, ReportingFrequency } from '../media-buys/index.ts';

/** An entry of a buy's history (sales_media_buy_history, the media buys' own) as the simulation reads it. */
export interface TimelineEntry {
  media_buy_id: string;
  action: string;
  package_id: string | null;
  /** The buy's status after the change. */
  status: MediaBuyStatus;
  at: Date;
}

/** Every history entry of these buys, oldest first (in the order they were recorded). */
export async function timelinesOf(db: Queryable, mediaBuyIds: readonly string[]): Promise<TimelineEntry[]> {
  if (mediaBuyIds.length === 0) return [];
  return db.query<TimelineEntry>(
    `select media_buy_id, action, package_id, status, at from sales_media_buy_history where media_buy_id = any($1::text[]) order by media_buy_id, id`,
    [mediaBuyIds],
  );
}

export interface AdjustmentRow {
  media_buy_id: string;
  kind: 'delivery' | 'budget_spend';
  impressions: number;
  clicks: number;
  conversions: number;
  reported_spend: number;
  spend_percentage: number | null;
  at: Date;
}

// Numeric columns read as text; the simulation works in JavaScript numbers.
const adjustmentColumns =
  'media_buy_id, kind, impressions, clicks, conversions, reported_spend::float8 as reported_spend, spend_percentage::float8 as spend_percentage, at';

/** The adjustments of these buys, oldest first. */
export async function adjustmentsOf(db: Queryable, mediaBuyIds: readonly string[]): Promise<AdjustmentRow[]> {
  if (mediaBuyIds.length === 0) return [];
  return db.query<AdjustmentRow>(
    `select ${adjustmentColumns} from sales_delivery_adjustments where media_buy_id = any($1::text[]) order by media_buy_id, id`,
    [mediaBuyIds],
  );
}

export async function insertAdjustment(db: Queryable, row: AdjustmentRow): Promise<void> {
  await db.query(
    `insert into sales_delivery_adjustments (media_buy_id, kind, impressions, clicks, conversions, reported_spend, spend_percentage, at) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      row.media_buy_id,
      row.kind,
      row.impressions,
      row.clicks,
      row.conversions,
      row.reported_spend,
      row.spend_percentage,
      row.at,
    ],
  );
}

/** What the controller has added to a buy's delivery so far, all simulate_delivery calls together. */
export async function deliveryAdded(
  db: Queryable,
  mediaBuyId: string,
): Promise<{ impressions: number; clicks: number; conversions: number; reported_spend: number }> {
  const [row] = await db.query<{ impressions: number; clicks: number; conversions: number; reported_spend: number }>(
    `select coalesce(sum(impressions), 0)::int8 as impressions, coalesce(sum(clicks), 0)::int8 as clicks, coalesce(sum(conversions), 0)::int8 as conversions,
            coalesce(sum(reported_spend), 0)::float8 as reported_spend
     from sales_delivery_adjustments where media_buy_id = $1 and kind = 'delivery'`,
    [mediaBuyId],
  );
  return row!;
}

/** A buy by id, of this owner when one is named (the controller acts within a caller's sandbox, or for the seller). */
export async function buyToAdjust(
  db: Queryable,
  mediaBuyId: string,
  owner: string | undefined,
): Promise<{ media_buy_id: string; currency: string } | undefined> {
  const [row] = await db.query<{ media_buy_id: string; currency: string }>(
    `select media_buy_id, currency from sales_media_buys where media_buy_id = $1 and ($2::text is null or owner = $2)`,
    [mediaBuyId, owner ?? null],
  );
  return row;
}

/** A buy's reporting webhook (sales_reporting_webhooks, which media-buys/ configures), where its reports stand, and its flight. */
export interface ReportingRow {
  media_buy_id: string;
  owner: string;
  seq: number;
  url: string;
  token: string | null;
  reporting_frequency: ReportingFrequency;
  requested_metrics: string[] | null;
  /** The last one sent; 0 before the first. */
  sequence_number: number;
  reported_until: Date | null;
  final_sent: boolean;
  status: MediaBuyStatus;
  start_time: Date;
  end_time: Date;
  updated_at: Date;
}

const reportingColumns = `r.media_buy_id, b.owner, b.seq, r.url, r.token, r.reporting_frequency, r.requested_metrics, r.sequence_number, r.reported_until, r.final_sent,
  b.status, b.start_time, b.end_time, b.updated_at`;

/** Up to `limit` buys whose final report is still to send, made after the buy `afterSeq`, in the order they were made. */
export async function openReporting(db: Queryable, afterSeq: number, limit: number): Promise<ReportingRow[]> {
  return db.query<ReportingRow>(
    `select ${reportingColumns} from sales_reporting_webhooks r join sales_media_buys b on b.media_buy_id = r.media_buy_id
     where not r.final_sent and b.seq > $1 order by b.seq limit $2`,
    [afterSeq, limit],
  );
}

/**
 * The buy's reporting row, locked until the transaction ends: a pass on another instance waits here,
 * then reads how far this one went, so a report is never sent twice nor skipped.
 */
export async function lockReporting(tx: Queryable, mediaBuyId: string): Promise<ReportingRow | undefined> {
  const [row] = await tx.query<ReportingRow>(
    `select ${reportingColumns} from sales_reporting_webhooks r join sales_media_buys b on b.media_buy_id = r.media_buy_id
     where r.media_buy_id = $1 for update of r`,
    [mediaBuyId],
  );
  return row;
}

/** Moves the buy's reports on, under the lock taken by lockReporting, in the transaction that queued them. */
export async function recordReportsSent(
  tx: Queryable,
  mediaBuyId: string,
  sent: { sequence_number: number; reported_until: Date | null; final_sent: boolean },
): Promise<void> {
  await tx.query(
    `update sales_reporting_webhooks set sequence_number = $2, reported_until = $3, final_sent = $4 where media_buy_id = $1`,
    [mediaBuyId, sent.sequence_number, sent.reported_until, sent.final_sent],
  );
}
