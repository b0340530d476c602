import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { accountHistory } from '../../../../src/agents/sales/accounts/index.ts';
import { creativeHistory } from '../../../../src/agents/sales/creatives/index.ts';
import { validActions } from '../../../../src/agents/sales/media-buys/index.ts';
import { mcpClient } from '../../../support/agents.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { banner, list, sync } from '../creatives/harness.ts';
import { buyerPool, createArgs, refused, startSales, succeeds, type Buyer } from './harness.ts';

const supported = [
  'force_account_status',
  'force_media_buy_status',
  'force_creative_status',
  'force_create_media_buy_arm',
  'force_task_completion',
  'seed_product',
  'seed_pricing_option',
  'seed_creative_format',
  'seed_creative',
  'seed_media_buy',
  'simulate_delivery',
  'simulate_budget_spend',
  'seed_plan',
];

eachEngine('sales agent: comply_test_controller, statuses and the sandbox gate', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const buyers = buyerPool(() => server, clock, { sandbox: true });
  const newBuyer = buyers.add;
  const buyOf = async (b: Buyer, mediaBuyId: string) =>
    (await b.get({ media_buy_ids: [mediaBuyId], include_history: 1 })).media_buys[0] as Json;

  before(async () => {
    server = await startSales(engine, clock);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
  });

  it('lists exactly the scenarios it supports, with or without a sandbox account', async () => {
    const b = await newBuyer();
    assert.deepEqual((await succeeds(b, 'list_scenarios')).scenarios, supported);
    assert.deepEqual((await succeeds(b, 'list_scenarios', undefined, null)).scenarios, supported);
  });

  it('answers UNKNOWN_SCENARIO, saying why, for sessions (no such entities here) and for scenarios the schema does not name', async () => {
    const b = await newBuyer();
    assert.match(
      (await refused(b, 'UNKNOWN_SCENARIO', 'force_session_status', { session_id: 's', status: 'terminated' }))
        .error_detail,
      /no sponsored-intelligence sessions/,
    );
    await refused(b, 'UNKNOWN_SCENARIO', 'force_weather', {});
  });

  it('seeds a plan of the caller with the deployment’s governance agent, which its checks then run against', async () => {
    const b = await newBuyer();
    const planId = `gov_${randomUUID().slice(0, 8)}`;
    const fixture = {
      budget: { total: 30_000, currency: 'USD' },
      brand: { domain: 'acmeoutdoor.example' },
      flight: { start: '2027-04-01', end: '2027-06-30' },
    };
    await succeeds(b, 'seed_plan', { plan_id: planId, fixture });
    assert.match((await succeeds(b, 'seed_plan', { plan_id: planId, fixture })).message, /already seeded/);
    const changed = await refused(b, 'INVALID_PARAMS', 'seed_plan', {
      plan_id: planId,
      fixture: { ...fixture, budget: { total: 1, currency: 'USD' } },
    });
    assert.match(changed.error_detail, /fixture\.budget differ/);
    await refused(b, 'INVALID_PARAMS', 'seed_plan', {
      plan_id: `gov_${randomUUID().slice(0, 8)}`,
      fixture: { flight: { start: '2027-06-30', end: '2027-04-01' } },
    });

    const governance = await mcpClient(server.url, '/governance', { authorization: `Bearer ${b.token}` });
    try {
      const check = async (budget: number) => {
        const result = (await governance.callTool({
          name: 'check_governance',
          arguments: {
            plan_id: planId,
            caller: 'https://buyer.example',
            tool: 'create_media_buy',
            payload: { budget },
          },
        })) as Json;
        return JSON.parse(result.content[0].text as string) as Json;
      };
      assert.equal((await check(20_000)).status, 'approved');
      assert.equal((await check(40_000)).status, 'denied', 'past the seeded budget of 30,000');
    } finally {
      await governance.close();
    }
  });

  it('is FORBIDDEN on a production account, and without an account for a scenario that acts', async () => {
    const production = await newBuyer({});
    const buy = await production.create();
    const forbidden = await refused(production, 'FORBIDDEN', 'force_media_buy_status', {
      media_buy_id: buy.media_buy_id,
      status: 'active',
    });
    assert.match(forbidden.error_detail, /not a sandbox account/);
    await refused(production, 'FORBIDDEN', 'force_account_status', {
      account_id: production.account.account_id,
      status: 'suspended',
    });
    await refused(production, 'FORBIDDEN', 'force_create_media_buy_arm', { arm: 'input-required' });
    await refused(production, 'FORBIDDEN', 'list_scenarios');
    assert.equal((await buyOf(production, buy.media_buy_id)).status, 'pending_creatives', 'nothing changed');
    assert.equal((await production.create()).status, 'pending_creatives', 'no directive was stored');

    const sandbox = await newBuyer();
    await refused(
      sandbox,
      'FORBIDDEN',
      'force_media_buy_status',
      { media_buy_id: buy.media_buy_id, status: 'active' },
      null,
    );
  });

  it('answers params its published schema refuses as INVALID_PARAMS, naming the field; an unknown account stays an agent error', async () => {
    const b = await newBuyer();
    assert.match(
      (await refused(b, 'INVALID_PARAMS', 'force_media_buy_status', { media_buy_id: 'mb_x', status: 'sleeping' }))
        .error_detail,
      /params\.status/,
    );
    assert.match((await refused(b, 'INVALID_PARAMS', 'force_creative_status')).error_detail, /params/);
    assert.match((await refused(b, 'INVALID_PARAMS', 'seed_product', {})).error_detail, /params\.product_id/);
    assert.match(
      (await refused(b, 'INVALID_PARAMS', 'seed_creative_format', { format_id: 7 })).error_detail,
      /params\.format_id/,
    );
    assert.match(
      (await refused(b, 'INVALID_PARAMS', 'seed_media_buy', 'mb_x' as unknown as Json)).error_detail,
      /params/,
      'params that are not an object',
    );
    assert.match(
      (await refused(b, 'INVALID_PARAMS', 'simulate_delivery', { media_buy_id: 'mb_x', impressions: -1 })).error_detail,
      /params\.impressions/,
    );
    assert.equal(
      (await b.fail('comply_test_controller', { scenario: 'list_scenarios', account: { account_id: 'acc_missing' } }))
        .code,
      'ACCOUNT_NOT_FOUND',
    );
  });

  it('forces the sandbox account’s status, recorded as the test controller’s; the same status again changes nothing; closed is terminal', async () => {
    const b = await newBuyer();
    const id = b.account.account_id;
    const suspended = await succeeds(b, 'force_account_status', { account_id: id, status: 'suspended' });
    assert.deepEqual([suspended.previous_state, suspended.current_state], ['active', 'suspended']);
    assert.equal((await b.fail('create_media_buy', createArgs(clock, b.account, b.domain))).code, 'ACCOUNT_SUSPENDED');
    const again = await succeeds(b, 'force_account_status', { account_id: id, status: 'suspended' });
    assert.deepEqual([again.previous_state, again.current_state], ['suspended', 'suspended']);
    await succeeds(b, 'force_account_status', { account_id: id, status: 'active' });
    await succeeds(b, 'force_account_status', { account_id: id, status: 'closed' });
    const reopened = await refused(b, 'INVALID_TRANSITION', 'force_account_status', {
      account_id: id,
      status: 'active',
    });
    assert.equal(reopened.current_state, 'closed');
    const history = await accountHistory(server.db, id);
    assert.deepEqual(
      history.map((h) => [h.change, h.status, h.changed_by]),
      [
        ['created', 'active', 'credential:sales/public-test'],
        ['status', 'suspended', 'test-controller'],
        ['status', 'active', 'test-controller'],
        ['closed', 'closed', 'test-controller'],
      ],
    );
  });

  it('answers NOT_FOUND for an account other than the call’s sandbox account', async () => {
    const b = await newBuyer();
    const sibling = await newBuyer();
    const other = await newBuyer({ org: true, sandbox: true });
    for (const account of [sibling.account, other.account, { account_id: 'acc_nowhere' }]) {
      const answer = await refused(b, 'NOT_FOUND', 'force_account_status', {
        account_id: account.account_id,
        status: 'suspended',
      });
      assert.equal(answer.current_state, null);
    }
    assert.equal((await accountHistory(server.db, sibling.account.account_id)).length, 1, 'untouched');
  });

  it('forces a buy’s status as one change: revision, history and valid_actions follow; a finished buy is terminal', async () => {
    const b = await newBuyer();
    const { media_buy_id: id } = await b.create();
    const active = await succeeds(b, 'force_media_buy_status', { media_buy_id: id, status: 'active' });
    assert.deepEqual([active.previous_state, active.current_state], ['pending_creatives', 'active']);
    let buy = await buyOf(b, id);
    assert.deepEqual([buy.status, buy.revision, buy.valid_actions], ['active', 2, validActions('active')]);
    assert.deepEqual(
      [buy.history[0].actor, buy.history[0].action, buy.history[0].revision],
      ['test-controller', 'activated', 2],
    );

    await succeeds(b, 'force_media_buy_status', { media_buy_id: id, status: 'active' });
    assert.equal((await buyOf(b, id)).revision, 2, 'the same status is no change');

    await succeeds(b, 'force_media_buy_status', { media_buy_id: id, status: 'paused' });
    buy = await buyOf(b, id);
    assert.deepEqual([buy.status, buy.revision, buy.valid_actions], ['paused', 3, validActions('paused')]);
    assert.equal((await b.update(id, { paused: false })).status, 'pending_start', 'the buyer resumes it by its flight');

    const canceled = await succeeds(b, 'force_media_buy_status', { media_buy_id: id, status: 'canceled' });
    assert.equal(canceled.previous_state, 'pending_start');
    buy = await buyOf(b, id);
    assert.deepEqual([buy.status, buy.valid_actions, buy.cancellation.canceled_by], ['canceled', [], 'seller']);
    for (const status of ['active', 'pending_start', 'completed']) {
      const answer = await refused(b, 'INVALID_TRANSITION', 'force_media_buy_status', { media_buy_id: id, status });
      assert.equal(answer.current_state, 'canceled');
    }

    const { media_buy_id: rejectedId } = await b.create();
    await succeeds(b, 'force_media_buy_status', {
      media_buy_id: rejectedId,
      status: 'rejected',
      rejection_reason: 'Inventory withdrawn',
    });
    const rejected = await buyOf(b, rejectedId);
    assert.deepEqual(
      [rejected.status, rejected.rejection_reason, rejected.history[0].action],
      ['rejected', 'Inventory withdrawn', 'rejected'],
    );
    assert.match(rejected.history[0].summary, /Inventory withdrawn/);
    const { media_buy_id: doneId } = await b.create();
    await succeeds(b, 'force_media_buy_status', { media_buy_id: doneId, status: 'completed' });
    assert.equal(
      (await refused(b, 'INVALID_TRANSITION', 'force_media_buy_status', { media_buy_id: doneId, status: 'active' }))
        .current_state,
      'completed',
    );
  });

  it('forces only the moves of the state machine: pending_creatives to pending_start to active, no rejection once it ran, never back to pending_creatives', async () => {
    const b = await newBuyer();
    const { media_buy_id: id } = await b.create();
    const started = await succeeds(b, 'force_media_buy_status', { media_buy_id: id, status: 'pending_start' });
    assert.deepEqual([started.previous_state, started.current_state], ['pending_creatives', 'pending_start']);
    await succeeds(b, 'force_media_buy_status', { media_buy_id: id, status: 'active' });
    for (const status of ['rejected', 'pending_creatives', 'pending_start']) {
      const answer = await refused(b, 'INVALID_TRANSITION', 'force_media_buy_status', { media_buy_id: id, status });
      assert.equal(answer.current_state, 'active', status);
      assert.match(answer.error_detail, /cannot move from active/);
    }
    await succeeds(b, 'force_media_buy_status', { media_buy_id: id, status: 'paused' });
    assert.equal(
      (await refused(b, 'INVALID_TRANSITION', 'force_media_buy_status', { media_buy_id: id, status: 'rejected' }))
        .current_state,
      'paused',
    );
    const buy = await buyOf(b, id);
    assert.deepEqual([buy.status, buy.revision], ['paused', 4], 'refused moves change nothing');
  });

  it('answers NOT_FOUND for a buy of another buyer, of another of the caller’s accounts, or none', async () => {
    const b = await newBuyer();
    const sibling = await newBuyer();
    const other = await newBuyer({ org: true, sandbox: true });
    const siblings = await sibling.create();
    const others = await other.create();
    for (const id of [siblings.media_buy_id, others.media_buy_id, 'mb_nowhere']) {
      assert.equal(
        (await refused(b, 'NOT_FOUND', 'force_media_buy_status', { media_buy_id: id, status: 'active' })).current_state,
        null,
      );
    }
    assert.equal((await buyOf(other, others.media_buy_id)).status, 'pending_creatives');
    assert.equal((await buyOf(sibling, siblings.media_buy_id)).revision, 1);
  });

  it('forces a creative’s status with its reason in the creative’s history; archived only goes back to approved', async () => {
    const b = await newBuyer();
    await sync(b, [banner(server, 'hero')]);
    const rejected = await succeeds(b, 'force_creative_status', {
      creative_id: 'hero',
      status: 'rejected',
      rejection_reason: 'Brand safety policy violation',
    });
    assert.deepEqual([rejected.previous_state, rejected.current_state], ['approved', 'rejected']);
    const listed = await list(b, { filters: { creative_ids: ['hero'] } });
    assert.equal((listed.creatives as Json[])[0]!.status, 'rejected');
    await succeeds(b, 'force_creative_status', { creative_id: 'hero', status: 'archived' });
    assert.equal(
      (await refused(b, 'INVALID_TRANSITION', 'force_creative_status', { creative_id: 'hero', status: 'processing' }))
        .current_state,
      'archived',
    );
    await succeeds(b, 'force_creative_status', { creative_id: 'hero', status: 'approved' });
    const history = await creativeHistory(server.db, b.account.account_id, 'hero');
    assert.deepEqual(
      history.map((h) => [h.change, h.status, h.reason, h.changed_by]),
      [
        ['status', 'rejected', 'Brand safety policy violation', 'test-controller'],
        ['status', 'archived', null, 'test-controller'],
        ['status', 'approved', null, 'test-controller'],
      ],
    );
  });

  it('answers NOT_FOUND for a creative of another buyer or another account', async () => {
    const b = await newBuyer();
    const other = await newBuyer({ org: true, sandbox: true });
    await sync(other, [banner(server, 'theirs')]);
    await refused(b, 'NOT_FOUND', 'force_creative_status', { creative_id: 'theirs', status: 'rejected' });
    await refused(b, 'NOT_FOUND', 'force_creative_status', { creative_id: `none-${randomUUID()}`, status: 'approved' });
    assert.equal(
      ((await list(other, { filters: { creative_ids: ['theirs'] } })).creatives as Json[])[0]!.status,
      'approved',
    );
  });

  it('answers through MCP with the request’s context echoed', async () => {
    const b = await newBuyer();
    const result = (await b.client.callTool({
      name: 'comply_test_controller',
      arguments: { scenario: 'list_scenarios', context: { run: 'r1' } },
    })) as Json;
    const payload = JSON.parse(result.content[0].text as string) as Json;
    assert.deepEqual(payload.context, { run: 'r1' });
  });
});
