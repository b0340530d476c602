import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { validActions } from '../../../../src/agents/sales/media-buys/index.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { buyerPool, inDays, startSales, type Buyer } from './harness.ts';

eachEngine('sales agent: update_media_buy', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const buyers = buyerPool(() => server, clock);
  const newBuyer = buyers.add;
  const refused = async (
    b: Buyer,
    mediaBuyId: string,
    changes: Record<string, unknown>,
    code: string,
    field?: string,
  ) => {
    const error = await b.fail('update_media_buy', {
      idempotency_key: randomUUID(),
      account: b.account,
      media_buy_id: mediaBuyId,
      ...changes,
    });
    assert.equal(error.code, code, JSON.stringify(error));
    if (field !== undefined) assert.equal(error.field, field, JSON.stringify(error));
    return error;
  };
  const current = async (b: Buyer, mediaBuyId: string, history = 0) =>
    (await b.get({ media_buy_ids: [mediaBuyId], include_history: history })).media_buys[0] as Json;

  before(async () => {
    server = await startSales(engine, clock);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
  });

  it('pauses, resumes and cancels, one revision each, answering what may be done next and recording who and when', async () => {
    const b = await newBuyer();
    const { media_buy_id: id } = await b.create();
    const paused = await b.update(id, { paused: true, revision: 1 });
    assert.deepEqual([paused.status, paused.revision, paused.valid_actions], ['paused', 2, validActions('paused')]);
    assert.ok(paused.valid_actions.includes('resume') && !paused.valid_actions.includes('pause'));
    await refused(b, id, { paused: true }, 'INVALID_STATE', 'paused');

    clock.advance(60_000);
    const resumed = await b.update(id, { paused: false });
    assert.deepEqual(
      [resumed.status, resumed.revision, resumed.valid_actions],
      ['pending_start', 3, validActions('pending_start')],
      'resumed to where its flight has it, before its start',
    );
    const waiting = await current(b, id);
    for (const pkg of waiting.packages)
      assert.ok(pkg.format_ids_pending.length > 0, 'its packages report the creatives they lack');
    await refused(b, id, { paused: false }, 'INVALID_STATE', 'paused');

    const canceled = await b.update(id, { canceled: true, cancellation_reason: 'Campaign pulled' });
    assert.deepEqual([canceled.status, canceled.revision, canceled.valid_actions], ['canceled', 4, []]);
    const stored = await current(b, id, 10);
    assert.equal(stored.status, 'canceled');
    assert.deepEqual(stored.cancellation, {
      canceled_at: clock.now().toISOString(),
      canceled_by: 'buyer',
      reason: 'Campaign pulled',
    });
    assert.deepEqual(
      stored.history.map((e: Json) => [e.revision, e.action]),
      [
        [4, 'canceled'],
        [3, 'resumed'],
        [2, 'paused'],
        [1, 'created'],
      ],
    );
    for (const entry of stored.history) assert.match(entry.actor, /\S/);
    assert.equal(stored.history[1].timestamp, clock.now().toISOString());
    assert.equal(stored.history[2].timestamp, new Date(clock.now().getTime() - 60_000).toISOString());

    await refused(b, id, { canceled: true }, 'NOT_CANCELLABLE', 'canceled');
    await refused(b, id, { paused: false }, 'INVALID_STATE');
    await refused(b, id, { packages: [{ package_id: stored.packages[0].package_id, budget: 9000 }] }, 'INVALID_STATE');
    assert.equal((await current(b, id)).revision, 4, 'refused changes bump nothing');
  });

  it('resumes a paused buy without creatives to active once its flight started, reporting on its packages the creatives they lack', async () => {
    const b = await newBuyer();
    const { media_buy_id: id, status } = await b.create({ start_time: 'asap' });
    assert.equal(status, 'pending_creatives');
    assert.equal((await b.update(id, { paused: true })).status, 'paused');
    const resumed = await b.update(id, { paused: false });
    assert.deepEqual([resumed.status, resumed.valid_actions], ['active', validActions('active')]);
    assert.deepEqual(resumed.affected_packages, [], 'no package was changed');
    const stored = await current(b, id, 1);
    assert.equal(stored.status, 'active');
    assert.equal(stored.history[0].action, 'resumed');
    for (const pkg of stored.packages) {
      assert.ok(!('creative_approvals' in pkg));
      assert.ok(
        pkg.format_ids_pending.some((f: Json) => f.id === 'display_300x250'),
        `${pkg.package_id} reports the formats it waits for`,
      );
    }
  });

  it('refuses an update made against a revision the buy has moved past', async () => {
    const b = await newBuyer();
    const { media_buy_id: id } = await b.create();
    await b.update(id, { paused: true, revision: 1 });
    const conflict = await refused(b, id, { paused: false, revision: 1 }, 'CONFLICT', 'revision');
    assert.equal(conflict.details.current_revision, 2);
    assert.equal((await current(b, id)).status, 'paused');
  });

  it('changes packages’ budgets, bids, flights and pauses, cancels one, and adds new ones, checking each as create does', async () => {
    const b = await newBuyer();
    const created = await b.create();
    const id = created.media_buy_id;
    const [fixed, auction] = created.packages.map((p: Json) => p.package_id);

    const changed = await b.update(id, {
      packages: [
        { package_id: fixed, budget: 7500, targeting_overlay: { geo_countries: ['CA'] } },
        { package_id: auction, bid_price: 6, paused: true, end_time: inDays(clock, 30) },
      ],
    });
    assert.equal(changed.revision, 2, 'one call, one revision');
    const [f, a] = changed.affected_packages;
    assert.deepEqual([f.budget, f.targeting_overlay], [7500, { geo_countries: ['CA'] }]);
    assert.deepEqual([a.bid_price, a.paused, a.end_time], [6, true, inDays(clock, 30)]);

    await refused(b, id, { packages: [{ package_id: fixed, budget: 2000 }] }, 'BUDGET_TOO_LOW', 'packages[0].budget');
    await refused(b, id, { packages: [{ package_id: fixed, budget: 0 }] }, 'BUDGET_TOO_LOW', 'packages[0].budget');
    await refused(
      b,
      id,
      { packages: [{ package_id: auction, bid_price: 1 }] },
      'VALIDATION_ERROR',
      'packages[0].bid_price',
    );
    await refused(
      b,
      id,
      { packages: [{ package_id: fixed, bid_price: 20 }] },
      'VALIDATION_ERROR',
      'packages[0].bid_price',
    );
    await refused(b, id, { packages: [{ package_id: 'pkg_nope' }] }, 'PACKAGE_NOT_FOUND', 'packages[0].package_id');
    await refused(
      b,
      id,
      { packages: [{ package_id: fixed, start_time: inDays(clock, 1) }] },
      'VALIDATION_ERROR',
      'packages[0].start_time',
    );
    await refused(b, id, { end_time: inDays(clock, 20) }, 'VALIDATION_ERROR', `package ${auction}.end_time`);
    await refused(b, id, { end_time: inDays(clock, 5) }, 'VALIDATION_ERROR', 'end_time');
    await refused(b, id, { start_time: inDays(clock, -1) }, 'VALIDATION_ERROR', 'start_time');
    await refused(b, id, {}, 'INVALID_REQUEST');

    const recipient = {
      legal_name: 'Acme Corporation GmbH',
      bank: { account_holder: 'Acme Corporation GmbH', iban: 'DE75512108001245126199' },
    };
    const moved = await b.update(id, { end_time: inDays(clock, 50), invoice_recipient: recipient });
    assert.equal(moved.revision, 3);
    assert.deepEqual(
      moved.invoice_recipient,
      { legal_name: 'Acme Corporation GmbH' },
      'bank details are stored, never answered',
    );

    const canceled = await b.update(id, {
      packages: [{ package_id: auction, canceled: true, cancellation_reason: 'Underdelivering' }],
    });
    assert.equal(canceled.affected_packages[0].canceled, true);
    assert.equal(canceled.affected_packages[0].cancellation.reason, 'Underdelivering');
    await refused(
      b,
      id,
      { packages: [{ package_id: auction, canceled: true }] },
      'NOT_CANCELLABLE',
      'packages[0].canceled',
    );
    await refused(
      b,
      id,
      { packages: [{ package_id: auction, budget: 5000 }] },
      'INVALID_STATE',
      'packages[0].package_id',
    );

    const added = await b.update(id, {
      new_packages: [{ product_id: 'cr_recipe_display', pricing_option_id: 'cpm_fixed', budget: 2000 }],
    });
    assert.equal(added.revision, 5);
    assert.equal(added.affected_packages[0].product_id, 'cr_recipe_display');
    await refused(
      b,
      id,
      { new_packages: [{ product_id: 'cr_recipe_display', pricing_option_id: 'cpm_fixed', budget: 100 }] },
      'BUDGET_TOO_LOW',
      'new_packages[0].budget',
    );
    await refused(
      b,
      id,
      { new_packages: [{ product_id: 'nope', pricing_option_id: 'cpm_fixed', budget: 2000 }] },
      'PRODUCT_NOT_FOUND',
      'new_packages[0].product_id',
    );

    const stored = await current(b, id);
    assert.equal(stored.revision, 5);
    assert.equal(stored.packages.length, 3);
    assert.equal(stored.total_budget, 7500 + 2000, 'a canceled package spends nothing');
    assert.equal(stored.end_time, inDays(clock, 50));
  });

  it('replays a retried update once, and refuses its key with another payload', async () => {
    const b = await newBuyer();
    const { media_buy_id: id } = await b.create();
    const args = { idempotency_key: randomUUID(), account: b.account, media_buy_id: id, paused: true };
    const first = await b.call('update_media_buy', args);
    const again = await b.call('update_media_buy', args);
    assert.equal(again.replayed, true);
    assert.equal(again.revision, first.revision);
    assert.equal((await current(b, id)).revision, 2, 'applied once');
    const conflict = await b.fail('update_media_buy', { ...args, paused: false });
    assert.equal(conflict.code, 'IDEMPOTENCY_CONFLICT');
  });

  it('applies concurrent updates one after another: consecutive revisions, no change lost', async () => {
    const b = await newBuyer();
    const created = await b.create();
    const id = created.media_buy_id;
    const pkg = created.packages[0].package_id;
    const budgets = [3000, 3100, 3200, 3300, 3400, 3500];
    const answers = await Promise.all(
      budgets.map((budget) => b.update(id, { packages: [{ package_id: pkg, budget }] })),
    );
    assert.deepEqual(
      answers.map((a) => a.revision).sort((x, y) => x - y),
      [2, 3, 4, 5, 6, 7],
    );
    const last = answers.find((a) => a.revision === 7)!;
    const stored = await current(b, id, 100);
    assert.equal(stored.revision, 7);
    assert.equal(
      stored.packages[0].budget,
      last.affected_packages[0].budget,
      'the last change applied is the one kept',
    );
    assert.deepEqual(
      stored.history.map((e: Json) => e.revision),
      [7, 6, 5, 4, 3, 2, 1],
    );

    // Against one revision, only one of several wins.
    const outcomes = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const result = (await b.client.callTool({
          name: 'update_media_buy',
          arguments: {
            idempotency_key: randomUUID(),
            account: b.account,
            media_buy_id: id,
            revision: 7,
            packages: [{ package_id: pkg, budget: 4000 + i }],
          },
        })) as Json;
        return result.isError ? JSON.parse(result.content[0].text).code : 'ok';
      }),
    );
    assert.deepEqual(outcomes.sort(), ['CONFLICT', 'CONFLICT', 'ok']);
    assert.equal((await current(b, id)).revision, 8);
  });

  it('answers another caller’s buy as not found, and an unknown one alike', async () => {
    const owner = await newBuyer();
    const other = await newBuyer({ org: true });
    const { media_buy_id: id } = await owner.create();
    await refused(other, id, { paused: true }, 'MEDIA_BUY_NOT_FOUND', 'media_buy_id');
    await refused(owner, 'mb_000000000000000000000000', { paused: true }, 'MEDIA_BUY_NOT_FOUND', 'media_buy_id');
    const borrowed = await other.fail('update_media_buy', {
      idempotency_key: randomUUID(),
      account: owner.account,
      media_buy_id: id,
      paused: true,
    });
    assert.equal(borrowed.code, 'ACCOUNT_NOT_FOUND');
    const seen = await other.get({ media_buy_ids: [id] });
    assert.deepEqual(seen.media_buys, []);
    assert.deepEqual(
      seen.errors.map((e: Json) => e.code),
      ['MEDIA_BUY_NOT_FOUND'],
    );
    assert.equal((await current(owner, id)).status, 'pending_creatives', 'untouched');
  });
});
