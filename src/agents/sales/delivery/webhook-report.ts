import type { Product } from '../catalog/index.ts';
import type { ReportingWebhook } from '../media-buys/index.ts';
import { requestedOnly } from './metrics.ts';
import { attributionWindow, buyReport } from './report.ts';
import type { DueReport } from './report-schedule.ts';
import { simulateBuy, statusAt } from './simulate.ts';
import { simBuyOf, type StoredBuy } from './stored-buy.ts';

/**
 * One report as a webhook sends it (media-buy/get-media-buy-delivery-response.json with its webhook
 * fields): the buy's delivery over the period, as get_media_buy_delivery answers it (report.ts),
 * numbered, with when the next one is expected unless it is the final one; only the requested
 * metrics when some were asked; no aggregated_totals, which the schema keeps to the task's
 * answers. A scheduled report shows the buy as it was at the period's end (status, pacing,
 * delivery status), so one sent late after downtime says what it would have said on time.
 */
export function webhookReport(
  stored: StoredBuy,
  report: DueReport,
  sequence: number,
  webhook: ReportingWebhook,
  products: readonly Product[],
  now: Date,
): Record<string, unknown> {
  const { buy } = stored;
  const { from, to } = report.period;
  const sim = simBuyOf(stored, products);
  const scheduled = report.kind === 'scheduled';
  const simulated = simulateBuy(sim, scheduled ? to : now);
  const status = scheduled ? (statusAt(sim.statuses, to.getTime() - 1) ?? buy.status) : buy.status;
  const { delivery } = buyReport({ ...buy, status }, stored.packages, sim, simulated, { from, to }, false);
  const asked = webhook.requested_metrics;
  return {
    notification_type: report.kind,
    sequence_number: sequence,
    ...(report.kind === 'scheduled' ? { next_expected_at: report.nextExpectedAt.toISOString() } : {}),
    // The simulation has every period's data at its end: nothing is ever delayed.
    partial_data: false,
    reporting_period: { start: from.toISOString(), end: to.toISOString() },
    currency: buy.currency,
    attribution_window: attributionWindow,
    media_buy_deliveries: [
      asked
        ? {
            ...delivery,
            totals: requestedOnly(delivery['totals'] as Record<string, unknown>, asked),
            by_package: (delivery['by_package'] as Array<Record<string, unknown>>).map((p) => requestedOnly(p, asked)),
          }
        : delivery,
    ],
    ...(webhook.token === undefined ? {} : { token: webhook.token }),
    sandbox: buy.sandbox,
  };
}
