import type { Queryable } from '../../../db/database.ts';
import { enqueueWebhookEvent, type TenantPass } from '../../runtime/index.ts';
import { buyList, isTerminal, reportingWebhook } from '../media-buys/index.ts';
import type { Shelf } from '../offering.ts';
import { dueReports, type ReportingState } from './report-schedule.ts';
import * as sql from './sql.ts';
import type { ReportingRow } from './sql.ts';
import { storedBuys } from './stored-buy.ts';
import { webhookReport } from './webhook-report.ts';

const batch = 200;
/**
 * The most reports one buy is sent in one pass: a day of hourly ones. A buy further behind (the
 * service was down) catches up over the next passes, oldest period first, so one buy never holds a
 * transaction long nor floods its buyer.
 */
export const maxReportsPerPass = 24;

/**
 * Sends each buy with a reporting webhook its reports as they fall due (report-schedule.ts): one
 * per elapsed period while it runs, then a final one once it has finished. Each buy's reports are
 * queued in one transaction, under its reporting row's lock, with the sequence number and period
 * they reach: a crash sends none of them, and another instance's pass, waiting on the lock, finds
 * them sent. The webhook deliverer signs (RFC 9421) and retries them.
 */
export function reportingPass(shelf: Shelf, intervalMs = 60_000): TenantPass {
  return {
    name: 'reporting',
    intervalMs,
    async run({ db, clock, webhooksQueued }) {
      for (let after = 0; ;) {
        const open = await sql.openReporting(db, after, batch);
        for (const row of open) {
          // Read without the lock first: most buys have nothing due on most passes.
          if (dueReports(stateOf(row), clock.now(), 1).length === 0) continue;
          const sent = await db.transaction((tx) => sendDue(tx, row.media_buy_id, shelf, clock.now()));
          if (sent > 0) webhooksQueued();
        }
        if (open.length < batch) return;
        after = open.at(-1)!.seq;
      }
    },
  };
}

/** Queues what is due of one buy's reports and records how far they went; answers how many. */
async function sendDue(tx: Queryable, mediaBuyId: string, shelf: Shelf, now: Date): Promise<number> {
  const row = await sql.lockReporting(tx, mediaBuyId);
  const due = row ? dueReports(stateOf(row), now, maxReportsPerPass) : [];
  if (!row || due.length === 0) return 0;
  const [buy] = await buyList(tx, row.owner, { ids: [mediaBuyId] }).rowsAfter(0, 1);
  const [stored] = await storedBuys(tx, [buy!]);
  // The buy's account's products: a sandbox account's seeded ones included.
  const { products } = await shelf(tx, { account_id: buy!.account_id, sandbox: buy!.sandbox });
  const webhook = reportingWebhook(row);
  let sequence = row.sequence_number;
  for (const report of due) {
    sequence += 1;
    await enqueueWebhookEvent(
      tx,
      { tenant: 'sales', url: webhook.url, payload: webhookReport(stored!, report, sequence, webhook, products, now) },
      now,
    );
  }
  const lastPeriod = due.findLast((r) => r.kind === 'scheduled')?.period.to ?? row.reported_until;
  await sql.recordReportsSent(tx, mediaBuyId, {
    sequence_number: sequence,
    reported_until: lastPeriod,
    final_sent: due.some((r) => r.kind === 'final'),
  });
  return due.length;
}

function stateOf(row: ReportingRow): ReportingState {
  return {
    frequency: row.reporting_frequency,
    start: row.start_time,
    end: row.end_time,
    // A finished buy takes no more changes, so its last change is when it finished.
    finishedAt: isTerminal(row.status) ? row.updated_at : undefined,
    reportedUntil: row.reported_until,
    finalSent: row.final_sent,
  };
}
