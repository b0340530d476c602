import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { demoCatalogPath, loadCatalogFile } from '../../../../src/agents/sales/catalog/index.ts';
import { maxReportsPerPass } from '../../../../src/agents/sales/delivery/reporting-pass.ts';
import { salesAgent } from '../../../../src/agents/sales/index.ts';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { TestReceiver } from '../../../support/webhooks.ts';
import { banner } from '../creatives/harness.ts';
import { buyerPool, createArgs, startSalesWithReceiver, type Buyer } from '../media-buys/harness.ts';
import { cents, day, delivery } from './harness.ts';

const RESPONSE = '/schemas/3.0.6/media-buy/get-media-buy-delivery-response.json';
const hour = 3600 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();
const signed = { schemes: ['HTTP_MESSAGE_SIGNATURES'] };

/**
 * A buyer's webhook receiver gets its buys' delivery reports from the reporting pass: one per
 * elapsed period, numbered, then a final one; signed, each valid against the published schema.
 */
eachEngine('sales agent: reporting webhooks', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const receiver = new TestReceiver();
  const buyers = buyerPool(() => server, clock);
  const newBuyer = buyers.add;
  /** Runs one of the sales agent's passes once, from start to end, as its interval would. */
  const pass = async (name: 'flight' | 'reporting') => {
    const background = server.app.agentPasses!.get(`sales:${name}`)!;
    const done = background.nextPass();
    background.wake();
    await done;
  };
  const passes = async () => {
    await pass('flight');
    await pass('reporting');
  };
  const hookUrl = () => `${receiver.url}/hooks/reports/${randomUUID()}`;
  /** The reports queued for a URL (the outbox, committed by the pass), in their order. */
  const queued = async (url: string): Promise<Json[]> => {
    const rows = await server.db.query<{ payload: Json }>('select payload from webhook_deliveries where url = $1', [
      url,
    ]);
    return rows.map((r) => r.payload).sort((a, b) => a.sequence_number - b.sequence_number);
  };
  /** The reports to a URL as the receiver verified them, once every queued one has arrived; each valid against the published schema. */
  const received = async (url: string): Promise<Json[]> => {
    const keys = new Set((await queued(url)).map((p) => p.idempotency_key as string));
    const arrived = () => receiver.events.filter((e) => keys.has(e.idempotency_key));
    await receiver.until(() => arrived().length === keys.size || receiver.statuses.some((s) => s !== 200));
    assert.deepEqual(
      receiver.statuses.filter((s) => s !== 200),
      [],
      'every report is signed and verifies',
    );
    const reports = (arrived() as Json[]).sort((a, b) => a.sequence_number - b.sequence_number);
    for (const report of reports)
      assert.deepEqual(
        validateSchema(RESPONSE, report).errors,
        [],
        `report ${report.sequence_number} answers the published schema`,
      );
    return reports;
  };
  /** A buy of one display package with a banner, from `start` to `end`, reporting as asked. */
  const buy = async (b: Buyer, start: number, end: number, more: Record<string, unknown> = {}) => {
    const [first] = createArgs(clock, b.account, b.domain).packages as Json[];
    return b.create({
      start_time: iso(start),
      end_time: iso(end),
      packages: [{ ...first, creatives: [banner(server, `cr-${randomUUID().slice(0, 8)}`)] }],
      ...more,
    });
  };
  /** The first UTC midnight (or hour) at least a day from now. */
  const nextMidnight = () => Math.ceil((clock.now().getTime() + day) / day) * day;
  const nextHour = () => Math.ceil((clock.now().getTime() + day) / hour) * hour;

  before(async () => {
    server = await startSalesWithReceiver(engine, clock, receiver);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
    await receiver.close();
  });

  it('sends one daily report per elapsed day from the start, numbered, none twice, then the final one when the flight ends', async () => {
    const b = await newBuyer();
    const url = hookUrl();
    const start = nextMidnight();
    const created = await buy(b, start, start + 3 * day, {
      reporting_webhook: { url, reporting_frequency: 'daily', token: 'buyer-token-0123456789', authentication: signed },
    });
    assert.equal(created.status, 'pending_start');

    await passes();
    clock.set(start + day - 1);
    await passes();
    assert.deepEqual(await queued(url), [], 'nothing before the first day has ended');

    clock.set(start + day + hour);
    await passes();
    const first = (await received(url))[0]!;
    assert.deepEqual(
      [
        first.notification_type,
        first.sequence_number,
        first.reporting_period,
        first.next_expected_at,
        first.token,
        first.partial_data,
        first.sandbox,
        first.aggregated_totals,
      ],
      [
        'scheduled',
        1,
        { start: iso(start), end: iso(start + day) },
        iso(start + 2 * day),
        'buyer-token-0123456789',
        false,
        false,
        undefined,
      ],
    );
    const [mine] = first.media_buy_deliveries;
    assert.deepEqual([mine.media_buy_id, mine.status, mine.totals.spend], [created.media_buy_id, 'active', 1666.67]);
    const asked = await delivery(b, {
      media_buy_ids: [created.media_buy_id],
      start_date: iso(start).slice(0, 10),
      end_date: iso(start + day).slice(0, 10),
    });
    assert.deepEqual(
      mine.totals,
      asked.media_buy_deliveries[0].totals,
      'the same day as get_media_buy_delivery reports it',
    );

    await passes();
    assert.equal((await queued(url)).length, 1, 'a second pass sends nothing again');

    clock.set(start + 3 * day + 60_000);
    await passes();
    const reports = await received(url);
    assert.deepEqual(
      reports.map((r) => [r.sequence_number, r.notification_type]),
      [
        [1, 'scheduled'],
        [2, 'scheduled'],
        [3, 'scheduled'],
        [4, 'final'],
      ],
    );
    assert.deepEqual(
      reports.slice(1, 3).map((r) => [r.reporting_period.start, r.reporting_period.end, r.next_expected_at]),
      [
        [iso(start + day), iso(start + 2 * day), iso(start + 3 * day)],
        [iso(start + 2 * day), iso(start + 3 * day), iso(start + 3 * day)],
      ],
    );
    const final = reports[3]!;
    assert.deepEqual(
      [final.reporting_period, final.next_expected_at, final.media_buy_deliveries[0].status],
      [{ start: iso(start), end: iso(start + 3 * day) }, undefined, 'completed'],
    );
    assert.equal(final.media_buy_deliveries[0].totals.spend, 5000, 'the whole budget over the flight');
    assert.equal(
      reports.slice(0, 3).reduce((sum, r) => sum + cents(r.media_buy_deliveries[0].totals.spend), 0),
      cents(5000),
      'the days add up to the flight',
    );

    await passes();
    assert.equal((await queued(url)).length, 4, 'nothing after the final report');
  });

  it('catches up hour by hour, a bounded number per pass, never twice when two instances run at once, and ends at a cancellation', async () => {
    const b = await newBuyer();
    const url = hookUrl();
    const start = nextHour() + hour / 2;
    const created = await buy(b, start, start + 10 * day, {
      reporting_webhook: { url, reporting_frequency: 'hourly', requested_metrics: ['clicks'] },
    });
    // Down for a day and a quarter: half an hour, then 29 whole hours have elapsed.
    clock.set(start + 29.5 * hour + 10 * 60_000);
    await pass('flight');
    await pass('reporting');
    assert.equal((await queued(url)).length, maxReportsPerPass, 'one pass sends at most its bound');

    const second = salesAgent({ catalog: await loadCatalogFile(demoCatalogPath), base: () => server.url }).passes!.find(
      (p) => p.name === 'reporting',
    )!;
    const otherInstance = second.run({
      db: server.db,
      clock,
      log: server.app.log,
      webhooksQueued: () => server.app.webhookDeliverer!.wake(),
    });
    await Promise.all([pass('reporting'), otherInstance]);
    await pass('reporting');
    const caughtUp = await received(url);
    assert.deepEqual(
      caughtUp.map((r) => r.sequence_number),
      Array.from({ length: 30 }, (_, i) => i + 1),
      'every hour once, in order',
    );
    assert.deepEqual(
      [caughtUp[0]!.reporting_period.start, caughtUp[0]!.reporting_period.end],
      [iso(start), iso(start + hour / 2)],
    );
    caughtUp
      .slice(1)
      .forEach((r, i) =>
        assert.equal(r.reporting_period.start, caughtUp[i]!.reporting_period.end, 'periods follow each other'),
      );
    assert.equal(caughtUp.at(-1)!.reporting_period.end, iso(start + 29.5 * hour));
    for (const r of caughtUp) {
      const [mine] = r.media_buy_deliveries;
      assert.deepEqual(
        [
          Object.keys(mine.totals).sort(),
          'ctr' in mine.by_package[0],
          'viewability' in mine.by_package[0],
          'clicks' in mine.by_package[0],
        ],
        [['clicks', 'effective_rate', 'impressions', 'spend'], false, false, true],
      );
    }

    const canceledAt = clock.now().getTime();
    await b.update(created.media_buy_id, { canceled: true });
    await passes();
    const reports = await received(url);
    assert.deepEqual(
      reports
        .slice(30)
        .map((r) => [
          r.sequence_number,
          r.notification_type,
          r.reporting_period.start,
          r.reporting_period.end,
          r.next_expected_at,
        ]),
      [
        [31, 'scheduled', iso(start + 29.5 * hour), iso(canceledAt), iso(canceledAt)],
        [32, 'final', iso(start), iso(canceledAt), undefined],
      ],
    );
    assert.equal(reports[31]!.media_buy_deliveries[0].status, 'canceled');
    await passes();
    assert.equal((await queued(url)).length, 32);
  });

  it('sets or changes the webhook with update_media_buy: the numbering goes on, the new frequency from the last period reported', async () => {
    const b = await newBuyer({ sandbox: true });
    const url = hookUrl();
    const start = nextMidnight();
    const created = await buy(b, start, start + 5 * day);
    const set = await b.update(created.media_buy_id, {
      reporting_webhook: { url, reporting_frequency: 'daily', authentication: signed },
    });
    assert.equal(set.revision, 2);
    const [history] = (await b.get({ media_buy_ids: [created.media_buy_id], include_history: 1 })).media_buys[0]
      .history;
    assert.equal(history.action, 'updated_reporting_webhook');

    const refusal = await b.fail('update_media_buy', {
      idempotency_key: randomUUID(),
      account: b.account,
      media_buy_id: created.media_buy_id,
      reporting_webhook: { url, reporting_frequency: 'monthly' },
    });
    assert.deepEqual([refusal.code, refusal.field], ['UNSUPPORTED_FEATURE', 'reporting_webhook.reporting_frequency']);
    const legacy = await b.fail('update_media_buy', {
      idempotency_key: randomUUID(),
      account: b.account,
      media_buy_id: created.media_buy_id,
      reporting_webhook: {
        url,
        reporting_frequency: 'daily',
        authentication: { schemes: ['HMAC-SHA256'], credentials: 'a-shared-secret-of-32-characters!' },
      },
    });
    assert.deepEqual([legacy.code, legacy.field], ['UNSUPPORTED_FEATURE', 'reporting_webhook.authentication.schemes']);

    clock.set(start + day + 2 * hour + 10 * 60_000);
    await passes();
    const daily = (await received(url))[0]!;
    assert.deepEqual([daily.sequence_number, daily.reporting_period.end, daily.sandbox], [1, iso(start + day), true]);

    await b.update(created.media_buy_id, { reporting_webhook: { url, reporting_frequency: 'hourly' } });
    await passes();
    const reports = await received(url);
    assert.deepEqual(
      reports.map((r) => [r.sequence_number, r.reporting_period.start, r.reporting_period.end]),
      [
        [1, iso(start), iso(start + day)],
        [2, iso(start + day), iso(start + day + hour)],
        [3, iso(start + day + hour), iso(start + day + 2 * hour)],
      ],
    );
  });

  it('refuses a webhook the products or this seller cannot serve, naming the field, and books nothing', async () => {
    const b = await newBuyer();
    const url = hookUrl();
    const start = nextMidnight();
    const refused = async (webhook: unknown, code: string, field: string) => {
      const error = await b.fail(
        'create_media_buy',
        createArgs(clock, b.account, b.domain, {
          start_time: iso(start),
          end_time: iso(start + day),
          reporting_webhook: webhook,
        }),
      );
      assert.deepEqual([error.code, error.field], [code, field], JSON.stringify(webhook));
      return error;
    };
    const monthly = await refused(
      { url, reporting_frequency: 'monthly', authentication: signed },
      'UNSUPPORTED_FEATURE',
      'reporting_webhook.reporting_frequency',
    );
    assert.deepEqual(monthly.details.available_reporting_frequencies, ['hourly', 'daily']);
    await refused(
      {
        url,
        reporting_frequency: 'daily',
        authentication: { schemes: ['Bearer'], credentials: 'a-bearer-token-of-32-characters!!' },
      },
      'UNSUPPORTED_FEATURE',
      'reporting_webhook.authentication.schemes',
    );
    await refused(
      { url, reporting_frequency: 'daily', authentication: { schemes: ['HMAC-SHA256'] } },
      'UNSUPPORTED_FEATURE',
      'reporting_webhook.authentication.schemes',
    );
    await refused(
      { url, reporting_frequency: 'daily', requested_metrics: ['impressions', 'conversions'] },
      'UNSUPPORTED_FEATURE',
      'reporting_webhook.requested_metrics[1]',
    );
    await refused(
      { url, reporting_frequency: 'daily', requested_metrics: ['sentiment'] },
      'INVALID_REQUEST',
      'reporting_webhook.requested_metrics[0]',
    );
    await refused(
      { url: 'ftp://buyer.example/reports', reporting_frequency: 'daily' },
      'VALIDATION_ERROR',
      'reporting_webhook.url',
    );
    await refused({ url: '/reports', reporting_frequency: 'daily' }, 'INVALID_REQUEST', 'reporting_webhook.url');
    await refused({ url, reporting_frequency: 'weekly' }, 'INVALID_REQUEST', 'reporting_webhook.reporting_frequency');
    await refused({ url }, 'INVALID_REQUEST', 'reporting_webhook.reporting_frequency');
    const all = ['pending_creatives', 'pending_start', 'active', 'paused', 'completed', 'rejected', 'canceled'];
    assert.deepEqual((await b.get({ status_filter: all })).media_buys, []);

    const capabilities = await b.call('get_ap_capabilities', {});
    assert.deepEqual((capabilities.media_buy as Json).reporting_delivery_methods, ['webhook']);
  });
});
