import { AgentError } from '../../../protocol/errors.ts';
import { errorObject, publishedSchemas, type AgentTask } from '../../runtime/index.ts';
import { ownerOf } from '../accounts/index.ts';
import type { Product } from '../catalog/index.ts';
import { buyList, buySelection, missingBuys, selectedBuys } from '../media-buys/index.ts';
import type { Offering, Shelf } from '../offering.ts';
import { deliveryMetrics, either, nothingShown, sum } from './metrics.ts';
import { attributionWindow, buyReport, type BuyReport } from './report.ts';
import { askedPeriod, lifetimeOnly, reportingPeriod, windowOf } from './reporting-period.ts';
import { simulateBuy } from './simulate.ts';
import { simBuyOf, storedBuys } from './stored-buy.ts';

/** The most buys one report covers: the request has no pagination, so a larger answer is refused rather than cut short. */
const maxBuys = 500;

/** aggregated_totals' metrics, of those a buy's totals report. */
const aggregatedMetrics = [
  'impressions',
  'spend',
  'clicks',
  'views',
  'completed_views',
  'completion_rate',
  'conversions',
];

/**
 * `get_media_buy_delivery` (media-buy/get-media-buy-delivery-request.json): the simulated delivery
 * of the caller's own buys (simulate.ts), of the account when one is named, by id or by status
 * (`active` when neither is given, as get_media_buys), over their lifetime or the asked UTC days
 * (start_date included, end_date excluded), up to the clock's now. Totals, by package (price,
 * pacing index, delivery status) and, with include_package_daily_breakdown, day by day. An id the
 * caller has no buy of is answered in errors[] as MEDIA_BUY_NOT_FOUND, whoever's it is.
 */
export function getMediaBuyDeliveryTask(shelf: Shelf): AgentTask {
  return {
    name: 'get_media_buy_delivery',
    description:
      'Delivery of your media buys so far: impressions, spend, clicks, conversions and video plays per buy and per package, with pacing_index and delivery_status. By media_buy_ids, or by status_filter ("active" when neither is given), optionally of one account; start_date/end_date (YYYY-MM-DD, UTC, end excluded) narrow it to those days, else lifetime. include_package_daily_breakdown: true adds day-by-day delivery.',
    input: {
      type: 'object',
      properties: {
        ...buySelection,
        start_date: {
          type: 'string',
          pattern: '^\\d{4}-\\d{2}-\\d{2}$',
          description: 'First UTC day reported (included).',
        },
        end_date: {
          type: 'string',
          pattern: '^\\d{4}-\\d{2}-\\d{2}$',
          description: 'UTC day the report stops before (excluded).',
        },
        include_package_daily_breakdown: { type: 'boolean' },
        attribution_window: {
          type: 'object',
          description: 'Not configurable here: the answer names the window applied.',
        },
        reporting_dimensions: {
          type: 'object',
          description: 'No dimensional breakdowns are offered; ignored, as the schema allows.',
        },
      },
      additionalProperties: true,
    },
    ...publishedSchemas('media-buy/get-media-buy-delivery'),
    mutates: false,
    async handler(args, ctx) {
      const asked = askedPeriod(args);
      const now = ctx.clock.now();
      const owner = ownerOf(ctx.principal);
      const filters = selectedBuys(args, ctx.account);

      const buys = await buyList(ctx.db, owner, filters).rowsAfter(0, maxBuys + 1);
      if (buys.length > maxBuys) {
        throw new AgentError(
          'INVALID_REQUEST',
          `More than ${maxBuys} of your media buys match; ask for fewer with media_buy_ids, status_filter or account.`,
          {
            field: filters.ids ? 'media_buy_ids' : 'status_filter',
          },
        );
      }
      // Asked ids the caller has no buy of (an id only filtered out by status is not missing).
      const unanswered = [...new Set(filters.ids ?? [])].filter((id) => !buys.some((b) => b.media_buy_id === id));
      const errors = await missingBuys(ctx.db, owner, filters, unanswered, ctx.account);

      const { products: catalog } = await shelf(ctx.db);
      // Each buy's account's products (a sandbox account's seeded ones included), read once per account.
      const shelves = new Map<string, Promise<Offering>>();
      const productsOf = async (buy: { account_id: string; sandbox: boolean }) => {
        if (!shelves.has(buy.account_id)) shelves.set(buy.account_id, shelf(ctx.db, buy));
        return (await shelves.get(buy.account_id)!).products;
      };
      const daily = args['include_package_daily_breakdown'] === true;
      const reports: Array<BuyReport & { currency: string; sandbox: boolean; firstActivity: Date }> = [];
      for (const stored of await storedBuys(ctx.db, buys)) {
        const { buy, packages: own } = stored;
        const products = await productsOf(buy);
        if (asked.start || asked.end) {
          const only = lifetimeOnly(
            own.map((p) => p.product_id),
            products,
          );
          if (only.length > 0) {
            errors.push(
              errorObject(
                new AgentError(
                  'UNSUPPORTED_FEATURE',
                  `Media buy ${buy.media_buy_id} has products reported over their whole flight only (${only.join(', ')}); ask for it without start_date and end_date.`,
                  {
                    field: asked.start ? 'start_date' : 'end_date',
                    details: { media_buy_id: buy.media_buy_id, product_ids: only },
                  },
                ),
              ),
            );
            continue;
          }
        }
        const sim = simBuyOf(stored, products);
        const simulated = simulateBuy(sim, now);
        const report = buyReport(buy, own, sim, simulated, windowOf(asked, simulated.firstActivity, now), daily);
        reports.push({
          ...report,
          currency: buy.currency,
          sandbox: buy.sandbox,
          firstActivity: simulated.firstActivity,
        });
      }

      const currencies = [...new Set(reports.map((r) => r.currency))];
      const totals = deliveryMetrics(
        sum(reports.map((r) => r.totals)),
        reports.map((r) => r.shown).reduce(either, nothingShown),
      );
      return {
        reporting_period: reportingPeriod(
          asked,
          reports.map((r) => r.firstActivity),
          now,
        ),
        currency: currencies[0] ?? sellersCurrency(catalog),
        attribution_window: attributionWindow,
        // Money of several currencies does not add up: each buy's totals stand alone then.
        ...(currencies.length <= 1
          ? {
              aggregated_totals: {
                ...Object.fromEntries(aggregatedMetrics.filter((k) => k in totals).map((k) => [k, totals[k]])),
                media_buy_count: reports.length,
              },
            }
          : {}),
        media_buy_deliveries: reports.map((r) => r.delivery),
        ...(errors.length > 0 ? { errors } : {}),
        sandbox: ctx.account?.['sandbox'] === true || (reports.length > 0 && reports.every((r) => r.sandbox)),
      };
    },
  };
}

/** With no buy to report, the currency the catalog prices in first. */
const sellersCurrency = (products: readonly Product[]) => products[0]?.pricing_options[0]?.currency ?? 'USD';
