import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { buyerPool, day, servingBuy, startSales, type Buyer } from './harness.ts';

const RESPONSE = '/schemas/3.0.6/content-standards/get-media-buy-artifacts-response.json';

eachEngine('sales agent: get_media_buy_artifacts', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const buyers = buyerPool(() => server, clock);
  let b: Buyer;
  let buy: Json;

  const artifacts = async (args: Json) => {
    const answer = await b.call('get_media_buy_artifacts', { media_buy_id: buy.media_buy_id, ...args });
    assert.deepEqual(
      validateSchema(RESPONSE, answer).errors,
      [],
      'get_media_buy_artifacts answers its published schema',
    );
    return answer;
  };

  before(async () => {
    server = await startSales(engine, clock);
    b = await buyers.add();
    buy = await servingBuy(server, clock, b);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
  });

  it('collects nothing before the flight, then one artifact per package per day delivered', async () => {
    const early = await artifacts({});
    assert.deepEqual(early.artifacts, []);
    assert.equal(early.collection_info.total_deliveries, 0);

    // Midday of the fourth UTC day of the flight, whatever the hour it started at.
    const firstDay = Math.floor(Date.parse(buy.packages[0].start_time) / day) * day;
    clock.set(firstDay + 3.5 * day);
    const answer = await artifacts({});
    const packages = buy.packages.map((p: Json) => p.package_id as string);
    assert.equal(answer.artifacts.length, 8, 'two packages, four days touched');
    assert.deepEqual([...new Set(answer.artifacts.map((a: Json) => a.package_id))].sort(), [...packages].sort());
    const [first] = answer.artifacts;
    assert.equal(first.local_verdict, 'unevaluated', 'this seller runs no local model');
    assert.match(first.record_id, new RegExp(`^${buy.media_buy_id}:`));
    assert.equal(first.artifact.assets[0].role, 'title');
    assert.ok(answer.collection_info.total_deliveries > 0);
    assert.equal(answer.collection_info.total_collected, 8);
    assert.equal(
      answer.collection_info.effective_rate,
      answer.collection_info.total_collected / answer.collection_info.total_deliveries,
    );
    // The same property is always named by the same rid.
    const again = await artifacts({});
    assert.deepEqual(
      again.artifacts.map((a: Json) => a.artifact.property_rid),
      answer.artifacts.map((a: Json) => a.artifact.property_rid),
    );
  });

  it('narrows by package and time, pages, and finds no local failures', async () => {
    const one = buy.packages[0].package_id as string;
    const narrowed = await artifacts({ package_ids: [one] });
    assert.ok(narrowed.artifacts.every((a: Json) => a.package_id === one));
    assert.equal(narrowed.artifacts.length, 4);
    // The UTC day after the flight's first.
    const secondDay = Math.floor(Date.parse(buy.packages[0].start_time) / day) * day + day;
    const oneDay = await artifacts({
      package_ids: [one],
      time_range: { start: new Date(secondDay).toISOString(), end: new Date(secondDay + day).toISOString() },
    });
    assert.deepEqual(
      oneDay.artifacts.map((a: Json) => a.timestamp),
      [new Date(secondDay).toISOString()],
    );
    const page = await artifacts({ pagination: { max_results: 3 } });
    assert.equal(page.artifacts.length, 3);
    assert.equal(page.pagination.has_more, true);
    const rest = await artifacts({ pagination: { max_results: 10, cursor: page.pagination.cursor } });
    assert.equal(rest.artifacts.length, 5);
    const failures = await artifacts({ failures_only: true });
    assert.deepEqual(failures.artifacts, [], 'unevaluated records are no failures');
  });

  it('answers MEDIA_BUY_NOT_FOUND for another buyer’s buy, as for none', async () => {
    const other = await buyers.add({ org: true });
    const foreign = await other.fail('get_media_buy_artifacts', { media_buy_id: buy.media_buy_id });
    const none = await other.fail('get_media_buy_artifacts', { media_buy_id: 'mb_nothing' });
    assert.equal(foreign.code, 'MEDIA_BUY_NOT_FOUND');
    assert.deepEqual({ ...foreign, message: '' }, { ...none, message: '' });
  });
});
