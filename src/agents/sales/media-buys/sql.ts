import type { Queryable } from '../../../db/database.ts';
import { firstRow } from '../../../db/first-row.ts';
import { keysetQuery, type KeysetReader } from '../../runtime/index.ts';
import type { BuyRow, HistoryEntry, PackageRow } from './media-buy.ts';
import type { ReportingFrequency, ReportingWebhook } from './reporting-webhook.ts';
import type { MediaBuyStatus } from './state.ts';

const buyColumns =
  'seq, media_buy_id, owner, account_id, status, revision, currency, sandbox, start_time, end_time, details, cancellation, confirmed_at, updated_at';
// Money is numeric in the table (exact); JSON answers carry numbers.
const packageColumns =
  'package_id, media_buy_id, position, product_id, pricing_option_id, budget::float8 as budget, bid_price::float8 as bid_price, start_time, end_time, paused, cancellation, details';

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/**
 * What an update may change of a buy, as the columns status, revision, start_time, end_time,
 * cancellation, updated_at and details take them.
 */
const changeableOfBuy = (buy: Omit<BuyRow, 'seq'>) => [
  buy.status,
  buy.revision,
  buy.start_time,
  buy.end_time,
  json(buy.cancellation),
  buy.updated_at,
  json(buy.details),
];

/**
 * What an update may change of a package (product and pricing option never change), as the
 * columns budget, bid_price, start_time, end_time, paused, cancellation and details take them.
 */
const changeableOfPackage = (pkg: PackageRow) => [
  pkg.budget,
  pkg.bid_price,
  pkg.start_time,
  pkg.end_time,
  pkg.paused,
  json(pkg.cancellation),
  json(pkg.details),
];

// The columns a new package is written in, by insertPackage and insertNewBuy.
const packageInsertColumns =
  'package_id, media_buy_id, position, product_id, pricing_option_id, budget, bid_price, start_time, end_time, paused, cancellation, details';

export async function insertPackage(tx: Queryable, pkg: PackageRow): Promise<void> {
  await tx.query(
    `insert into sales_media_buy_packages (${packageInsertColumns})
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      pkg.package_id,
      pkg.media_buy_id,
      pkg.position,
      pkg.product_id,
      pkg.pricing_option_id,
      ...changeableOfPackage(pkg),
    ],
  );
}

/**
 * A new buy, its packages and its first history entry in one statement: one round trip where
 * three were (a booking's transaction is mostly round trips). The packages travel as one JSON
 * array; the sibling inserts' rows meet their foreign keys at the statement's end.
 */
export async function insertNewBuy(
  tx: Queryable,
  buy: Omit<BuyRow, 'seq'>,
  packages: readonly PackageRow[],
  created: HistoryEntry,
): Promise<void> {
  await tx.query(
    `with buy as (
       insert into sales_media_buys (media_buy_id, owner, account_id, currency, sandbox, confirmed_at, status, revision, start_time, end_time, cancellation, updated_at, details)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ), packages as (
       insert into sales_media_buy_packages (${packageInsertColumns})
       select ${packageInsertColumns}
         from jsonb_to_recordset($14::jsonb) as p(package_id text, media_buy_id text, position integer, product_id text, pricing_option_id text,
           budget numeric, bid_price numeric, start_time timestamptz, end_time timestamptz, paused boolean, cancellation jsonb, details jsonb)
     )
     insert into sales_media_buy_history (media_buy_id, revision, action, package_id, summary, status, actor, at)
     values ($1, $15, $16, $17, $18, $19, $20, $21)`,
    [
      buy.media_buy_id,
      buy.owner,
      buy.account_id,
      buy.currency,
      buy.sandbox,
      buy.confirmed_at,
      ...changeableOfBuy(buy),
      JSON.stringify(packages),
      created.revision,
      created.action,
      created.package_id ?? null,
      created.summary,
      created.status,
      created.actor,
      created.at,
    ],
  );
}

/** Which of these ids a media buy or a package already has, whoever's it is: a buy named by its caller (a sandbox seed) must not take one. */
export async function takenIds(db: Queryable, mediaBuyId: string, packageIds: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `select media_buy_id as id from sales_media_buys where media_buy_id = $1 union all select package_id from sales_media_buy_packages where package_id = any($2::text[])`,
    [mediaBuyId, packageIds],
  );
  return rows.map((r) => r.id);
}

/** Writes what an update may change of a package. */
export async function updatePackage(tx: Queryable, pkg: PackageRow): Promise<void> {
  await tx.query(
    `update sales_media_buy_packages set budget = $2, bid_price = $3, start_time = $4, end_time = $5, paused = $6, cancellation = $7, details = $8 where package_id = $1`,
    [pkg.package_id, ...changeableOfPackage(pkg)],
  );
}

/** The owner's buy as it stands (locked until the transaction ends with `lock`). */
export async function buyOf(
  db: Queryable,
  owner: string,
  mediaBuyId: string,
  lock = false,
): Promise<BuyRow | undefined> {
  return firstRow<BuyRow>(
    db,
    `select ${buyColumns} from sales_media_buys where owner = $1 and media_buy_id = $2${lock ? ' for update' : ''}`,
    [owner, mediaBuyId],
  );
}

/**
 * The caller's buy, locked until the transaction ends: concurrent updates of one buy wait for each
 * other here, so each reads the revision the one before it wrote and no change is lost.
 */
export const lockBuy = (tx: Queryable, owner: string, mediaBuyId: string): Promise<BuyRow | undefined> =>
  buyOf(tx, owner, mediaBuyId, true);

/** Writes what an update may change of a buy. */
export async function updateBuy(tx: Queryable, buy: BuyRow): Promise<void> {
  await tx.query(
    `update sales_media_buys set status = $2, revision = $3, start_time = $4, end_time = $5, cancellation = $6, updated_at = $7, details = $8 where media_buy_id = $1`,
    [buy.media_buy_id, ...changeableOfBuy(buy)],
  );
}

/** The packages of these buys, in each buy's order. */
export async function packagesOf(db: Queryable, mediaBuyIds: readonly string[]): Promise<PackageRow[]> {
  if (mediaBuyIds.length === 0) return [];
  return db.query<PackageRow>(
    `select ${packageColumns} from sales_media_buy_packages where media_buy_id = any($1::text[]) order by media_buy_id, position`,
    [mediaBuyIds],
  );
}

export async function recordHistory(
  tx: Queryable,
  mediaBuyId: string,
  entries: readonly HistoryEntry[],
): Promise<void> {
  for (const e of entries) {
    await tx.query(
      `insert into sales_media_buy_history (media_buy_id, revision, action, package_id, summary, status, actor, at) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [mediaBuyId, e.revision, e.action, e.package_id ?? null, e.summary, e.status, e.actor, e.at],
    );
  }
}

/** The latest `limit` entries of each buy, most recent first. */
export async function historyOf(
  db: Queryable,
  mediaBuyIds: readonly string[],
  limit: number,
): Promise<Array<HistoryEntry & { media_buy_id: string }>> {
  if (mediaBuyIds.length === 0 || limit === 0) return [];
  return db.query(
    `select media_buy_id, revision, action, package_id, summary, status, actor, at from (
       select h.*, row_number() over (partition by media_buy_id order by id desc) as n from sales_media_buy_history h where media_buy_id = any($1::text[])
     ) latest where n <= $2 order by media_buy_id, id desc`,
    [mediaBuyIds, limit],
  );
}

export interface ListFilters {
  accountId?: string;
  ids?: readonly string[];
  statuses?: readonly MediaBuyStatus[];
}

/** The owner's buys matching the filters, in the order they were made, as get_media_buys pages them. */
export const buyList = (db: Queryable, owner: string, f: ListFilters): KeysetReader<BuyRow> =>
  keysetQuery<BuyRow>(db, {
    table: 'sales_media_buys',
    columns: buyColumns,
    where: `owner = $1 and ($2::text is null or account_id = $2) and ($3::text[] is null or media_buy_id = any($3::text[])) and ($4::text[] is null or status = any($4::text[]))`,
    params: [owner, f.accountId ?? null, f.ids ?? null, f.statuses ?? null],
  });

/** A package of the owner's buys on one account, with what assigning creatives to it needs to know. */
export interface AssignablePackageRow {
  package_id: string;
  media_buy_id: string;
  product_id: string;
  details: Record<string, unknown>;
  cancellation: unknown;
  buy_status: MediaBuyStatus;
}

export async function packagesOfAccount(
  db: Queryable,
  owner: string,
  accountId: string,
  packageIds: readonly string[],
): Promise<AssignablePackageRow[]> {
  if (packageIds.length === 0) return [];
  return db.query<AssignablePackageRow>(
    `select p.package_id, p.media_buy_id, p.product_id, p.details, p.cancellation, b.status as buy_status
     from sales_media_buy_packages p join sales_media_buys b on b.media_buy_id = p.media_buy_id
     where b.owner = $1 and b.account_id = $2 and p.package_id = any($3::text[])`,
    [owner, accountId, packageIds],
  );
}

/** Whether any creative is assigned to a package of the buy (sales_creative_assignments, the creative library's). */
export async function hasCreatives(db: Queryable, mediaBuyId: string): Promise<boolean> {
  const [row] = await db.query<{ found: boolean }>(
    `select exists (select 1 from sales_creative_assignments a join sales_media_buy_packages p on p.package_id = a.package_id where p.media_buy_id = $1) as found`,
    [mediaBuyId],
  );
  return row!.found;
}

/**
 * Buys the flight has moved past a boundary of at `now`: waiting for their start once it has
 * come, or not yet finished once their end has passed; oldest first, at most `limit`.
 */
export async function buysAtFlightBoundary(
  db: Queryable,
  now: Date,
  limit: number,
): Promise<Array<{ owner: string; media_buy_id: string }>> {
  return db.query(
    `select owner, media_buy_id from sales_media_buys
     where (status = 'pending_start' and start_time <= $1) or (status in ('pending_creatives', 'pending_start', 'active', 'paused') and end_time <= $1)
     order by seq limit $2`,
    [now, limit],
  );
}

/**
 * Sets the buy's reporting webhook (sales_reporting_webhooks), or replaces its configuration: how
 * far its reports went is kept, so the numbering goes on and no period is sent twice.
 */
export async function setReportingWebhook(
  tx: Queryable,
  mediaBuyId: string,
  webhook: ReportingWebhook,
  now: Date,
): Promise<void> {
  await tx.query(
    `insert into sales_reporting_webhooks (media_buy_id, url, token, reporting_frequency, requested_metrics, updated_at) values ($1, $2, $3, $4, $5, $6)
     on conflict (media_buy_id) do update set url = excluded.url, token = excluded.token, reporting_frequency = excluded.reporting_frequency,
       requested_metrics = excluded.requested_metrics, updated_at = excluded.updated_at`,
    [mediaBuyId, webhook.url, webhook.token ?? null, webhook.reporting_frequency, json(webhook.requested_metrics), now],
  );
}

/** The buy's reporting webhook, if it has one. */
export async function reportingWebhookOf(db: Queryable, mediaBuyId: string): Promise<ReportingWebhook | undefined> {
  const [row] = await db.query<{
    url: string;
    token: string | null;
    reporting_frequency: ReportingFrequency;
    requested_metrics: string[] | null;
  }>(
    `select url, token, reporting_frequency, requested_metrics from sales_reporting_webhooks where media_buy_id = $1`,
    [mediaBuyId],
  );
  return row && reportingWebhook(row);
}

/** A stored configuration as core/reporting-webhook.json has it. */
export function reportingWebhook(row: {
  url: string;
  token: string | null;
  reporting_frequency: ReportingFrequency;
  requested_metrics: string[] | null;
}): ReportingWebhook {
  return {
    url: row.url,
    ...(row.token === null ? {} : { token: row.token }),
    reporting_frequency: row.reporting_frequency,
    ...(row.requested_metrics === null ? {} : { requested_metrics: row.requested_metrics }),
  };
}
