import type { Queryable } from '../../../db/database.ts';
import type { MediaBuyStatus } from '../media-buys/index.ts';

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
const adjustmentColumns = 'media_buy_id, kind, impressions, clicks, conversions, reported_spend::float8 as reported_spend, spend_percentage::float8 as spend_percentage, at';

/** The adjustments of these buys, oldest first. */
export async function adjustmentsOf(db: Queryable, mediaBuyIds: readonly string[]): Promise<AdjustmentRow[]> {
  if (mediaBuyIds.length === 0) return [];
  return db.query<AdjustmentRow>(`select ${adjustmentColumns} from sales_delivery_adjustments where media_buy_id = any($1::text[]) order by media_buy_id, id`, [mediaBuyIds]);
}

export async function insertAdjustment(db: Queryable, row: AdjustmentRow): Promise<void> {
  await db.query(
    `insert into sales_delivery_adjustments (media_buy_id, kind, impressions, clicks, conversions, reported_spend, spend_percentage, at) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [row.media_buy_id, row.kind, row.impressions, row.clicks, row.conversions, row.reported_spend, row.spend_percentage, row.at],
  );
}

/** What the controller has added to a buy's delivery so far, all simulate_delivery calls together. */
export async function deliveryAdded(db: Queryable, mediaBuyId: string): Promise<{ impressions: number; clicks: number; conversions: number; reported_spend: number }> {
  const [row] = await db.query<{ impressions: number; clicks: number; conversions: number; reported_spend: number }>(
    `select coalesce(sum(impressions), 0)::int8 as impressions, coalesce(sum(clicks), 0)::int8 as clicks, coalesce(sum(conversions), 0)::int8 as conversions,
            coalesce(sum(reported_spend), 0)::float8 as reported_spend
     from sales_delivery_adjustments where media_buy_id = $1 and kind = 'delivery'`,
    [mediaBuyId],
  );
  return row!;
}

/** A buy by id, of this owner when one is named (the controller acts within a caller's sandbox, or for the seller). */
export async function buyToAdjust(db: Queryable, mediaBuyId: string, owner: string | undefined): Promise<{ media_buy_id: string; currency: string } | undefined> {
  const [row] = await db.query<{ media_buy_id: string; currency: string }>(
    `select media_buy_id, currency from sales_media_buys where media_buy_id = $1 and ($2::text is null or owner = $2)`,
    [mediaBuyId, owner ?? null],
  );
  return row;
}
