import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { buyerPool, day, startSales, type Buyer } from '../media-buys/harness.ts';

const schemas: Record<string, string> = {
  sync_event_sources: '/schemas/3.0.6/media-buy/sync-event-sources-response.json',
  log_event: '/schemas/3.0.6/media-buy/log-event-response.json',
  provide_performance_feedback: '/schemas/3.0.6/media-buy/provide-performance-feedback-response.json',
};

/** Conversion tracking of sales-catalog-driven as a buyer runs it: sources, events (each once), and feedback on a buy. */
eachEngine('sales agent: conversions', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const buyers = buyerPool(() => server, clock);

  before(async () => {
    server = await startSales(engine, clock);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
  });

  const call = async (b: Buyer, name: string, args: Record<string, unknown>): Promise<Json> => {
    const answer = await b.call(name, { idempotency_key: randomUUID(), ...args });
    assert.deepEqual(validateSchema(schemas[name]!, answer).errors, [], `${name} answers its published schema`);
    return answer;
  };
  const event = (id: string, type = 'purchase', more: Record<string, unknown> = {}) => ({
    event_id: id,
    event_type: type,
    event_time: new Date(clock.now().getTime() - 3600_000).toISOString(),
    ...more,
  });

  it('declares event sources, lists them, and logs each event once', async () => {
    const b = await buyers.add();
    const synced = await call(b, 'sync_event_sources', {
      account: b.account,
      event_sources: [{ event_source_id: 'web', name: 'Web checkout', event_types: ['purchase', 'add_to_cart'] }],
    });
    assert.deepEqual(
      (synced.event_sources as Json[]).map((s) => [
        s.event_source_id,
        s.action,
        s.managed_by,
        (s.setup as Json).snippet_type,
      ]),
      [['web', 'created', 'buyer', 'server_only']],
    );
    assert.deepEqual(
      (await call(b, 'sync_event_sources', { account: b.account })).event_sources.map((s: Json) => [
        s.event_source_id,
        s.action,
      ]),
      [['web', 'unchanged']],
    );

    const logged = await call(b, 'log_event', {
      event_source_id: 'web',
      events: [
        event('o-1', 'purchase', { user_match: { hashed_email: 'a'.repeat(64) } }),
        event('o-2', 'add_to_cart'),
        event('o-2', 'add_to_cart'),
        event('o-3', 'lead'),
        { ...event('o-4'), event_time: new Date(clock.now().getTime() + day).toISOString() },
      ],
    });
    assert.deepEqual([logged.events_received, logged.events_processed, logged.match_quality], [5, 2, 0.5]);
    assert.deepEqual(
      (logged.partial_failures as Json[]).map((f) => [f.event_id, f.code]),
      [
        ['o-3', 'VALIDATION_ERROR'],
        ['o-4', 'VALIDATION_ERROR'],
      ],
    );
    assert.match((logged.warnings as string[])[0]!, /1 event was already logged/);

    const again = await call(b, 'log_event', { event_source_id: 'web', events: [event('o-1'), event('o-5')] });
    assert.equal(again.events_processed, 1, 'o-1 was counted already');
    const tested = await call(b, 'log_event', {
      event_source_id: 'web',
      test_event_code: 'TEST123',
      events: [event('t-1')],
    });
    assert.equal(tested.events_processed, 1);
    assert.equal(
      (await call(b, 'log_event', { event_source_id: 'web', events: [event('t-1')] })).events_processed,
      1,
      'a test event was not recorded',
    );
  });

  it('answers REFERENCE_NOT_FOUND for an event source the caller never declared', async () => {
    const b = await buyers.add();
    const other = await buyers.add({ org: true });
    await call(b, 'sync_event_sources', { account: b.account, event_sources: [{ event_source_id: 'app' }] });
    const error = await other.fail('log_event', {
      idempotency_key: randomUUID(),
      event_source_id: 'app',
      events: [event('x')],
    });
    assert.deepEqual([error.code, error.field], ['REFERENCE_NOT_FOUND', 'event_source_id']);
  });

  it('deletes sources not sent with delete_missing', async () => {
    const b = await buyers.add();
    await call(b, 'sync_event_sources', {
      account: b.account,
      event_sources: [{ event_source_id: 'a' }, { event_source_id: 'b' }],
    });
    const answer = await call(b, 'sync_event_sources', {
      account: b.account,
      event_sources: [{ event_source_id: 'a', name: 'A' }],
      delete_missing: true,
    });
    assert.deepEqual(
      (answer.event_sources as Json[]).map((s) => [s.event_source_id, s.action]),
      [
        ['a', 'updated'],
        ['b', 'deleted'],
      ],
    );
  });

  it('takes performance feedback on the caller’s own buy and package only', async () => {
    const b = await buyers.add();
    const buy = await b.create();
    const period = { start: new Date(clock.now().getTime() - 7 * day).toISOString(), end: clock.now().toISOString() };
    const ok = await call(b, 'provide_performance_feedback', {
      media_buy_id: buy.media_buy_id,
      package_id: buy.packages[0].package_id,
      measurement_period: period,
      performance_index: 1.3,
      metric_type: 'conversion_rate',
    });
    assert.equal(ok.success, true);
    const [stored] = await server.db.query<{ performance_index: number; metric_type: string }>(
      `select performance_index::float8 as performance_index, metric_type from sales_performance_feedback where media_buy_id = $1`,
      [buy.media_buy_id],
    );
    assert.deepEqual(stored, { performance_index: 1.3, metric_type: 'conversion_rate' });

    const noPackage = await b.fail('provide_performance_feedback', {
      idempotency_key: randomUUID(),
      media_buy_id: buy.media_buy_id,
      package_id: 'pkg_nope',
      measurement_period: period,
      performance_index: 1,
    });
    assert.deepEqual([noPackage.code, noPackage.field], ['PACKAGE_NOT_FOUND', 'package_id']);
    const stranger = await buyers.add({ org: true });
    const notTheirs = await stranger.fail('provide_performance_feedback', {
      idempotency_key: randomUUID(),
      media_buy_id: buy.media_buy_id,
      measurement_period: period,
      performance_index: 1,
    });
    assert.deepEqual([notTheirs.code, notTheirs.field], ['MEDIA_BUY_NOT_FOUND', 'media_buy_id']);
    const backwards = await b.fail('provide_performance_feedback', {
      idempotency_key: randomUUID(),
      media_buy_id: buy.media_buy_id,
      measurement_period: { start: period.end, end: period.start },
      performance_index: 1,
    });
    assert.deepEqual([backwards.code, backwards.field], ['VALIDATION_ERROR', 'measurement_period.end']);
  });
});
