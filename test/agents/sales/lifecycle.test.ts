import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TaskEvent } from '../../../src/agents/index.ts';
import { publicTestCredential } from '../../../src/config.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { a2aClient, mcpClient, sendSkill } from '../../support/agents.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { Reports } from '../../support/events.ts';
import type { Json } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import { banner } from './creatives/harness.ts';
import { day, inDays, startSales } from './media-buys/harness.ts';

/** The published response schema of each task the lifecycle calls. */
const responses: Record<string, string> = {
  get_ap_capabilities: '/schemas/3.0.6/protocol/get-ap-capabilities-response.json',
  get_products: '/schemas/3.0.6/media-buy/get-products-response.json',
  list_creative_formats: '/schemas/3.0.6/media-buy/list-creative-formats-response.json',
  sync_accounts: '/schemas/3.0.6/account/sync-accounts-response.json',
  list_accounts: '/schemas/3.0.6/account/list-accounts-response.json',
  create_media_buy: '/schemas/3.0.6/media-buy/create-media-buy-response.json',
  update_media_buy: '/schemas/3.0.6/media-buy/update-media-buy-response.json',
  get_media_buys: '/schemas/3.0.6/media-buy/get-media-buys-response.json',
  get_media_buy_delivery: '/schemas/3.0.6/media-buy/get-media-buy-delivery-response.json',
  sync_creatives: '/schemas/3.0.6/creative/sync-creatives-response.json',
  list_creatives: '/schemas/3.0.6/creative/list-creatives-response.json',
  get_task: '/schemas/3.0.6/core/tasks-get-response.json',
};

/** A buyer's way of calling the agent: the answer's payload, or `{error}` when the task refused. */
type Call = (name: string, args: Record<string, unknown>) => Promise<Json>;

/** Over MCP with the official client: a refusal is a tool result with isError. */
function overMcp(client: Client): Call {
  return async (name, args) => {
    const result = (await client.callTool({ name, arguments: args })) as Json;
    const payload = JSON.parse(result.content[0].text as string) as Json;
    return result.isError === true ? { error: payload } : payload;
  };
}

/**
 * Over A2A with the official client: a data part naming the skill; the answer is a message (its
 * data: the payload, or `{error}`), or, for a task that goes on, a Task whose status message
 * carries the task as get_task answers it.
 */
function overA2a(client: Awaited<ReturnType<typeof a2aClient>>): Call {
  return async (name, args) => {
    const answer = await sendSkill(client, name, args);
    const parts = 'status' in answer ? answer.status!.message!.parts : answer.parts;
    const content = parts[0]!.content as { $case: 'data'; value: Json };
    return content.value;
  };
}

/**
 * The whole media-buy lifecycle as a buyer's agent runs it, once over MCP and once over A2A:
 * discover, open an account, buy (at once and waiting for approval), upload creatives, assign
 * them, serve, pause, resume, change, read delivery, cancel; every answer checked against its
 * published schema, and the mistakes a buyer makes along the way answered with their codes.
 */
eachEngine('sales agent: the media-buy lifecycle over MCP and A2A', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const tasks = new Reports<TaskEvent>();
  let mcp: Client;
  const headers = { authorization: `Bearer ${publicTestCredential}` };
  const flightPass = async () => {
    const pass = server.app.agentPasses!.get('sales:flight')!;
    const done = pass.nextPass();
    pass.wake();
    await done;
  };

  before(async () => {
    server = await startSales(engine, clock);
    server.app.taskWorker!.watch(tasks.add);
    mcp = await mcpClient(server.url, '/sales', headers);
  });
  after(async () => {
    await mcp.close();
    await server.close();
  });

  for (const transport of ['MCP', 'A2A'] as const) {
    it(`runs from discovery to cancellation over ${transport}`, async () => {
      const raw = transport === 'MCP' ? overMcp(mcp) : overA2a(await a2aClient(server.url, '/sales', headers));
      const call = async (name: string, args: Record<string, unknown> = {}) => {
        const payload = await raw(name, args);
        assert.equal(payload.error, undefined, `${name} failed: ${JSON.stringify(payload.error)}`);
        // Over A2A a task that goes on answers as an A2A Task, whose status carries the task as get_task answers it.
        const schema = payload.task_type !== undefined ? responses['get_task'] : responses[name];
        if (schema)
          assert.deepEqual(validateSchema(schema, payload).errors, [], `${name} answers its published schema`);
        return payload;
      };
      const refused = async (name: string, args: Record<string, unknown>, code: string) => {
        const { error } = await raw(name, args);
        assert.ok(error, `${name} should have been refused with ${code}`);
        assert.equal(error.code, code, JSON.stringify(error));
        assert.deepEqual(validateSchema('/schemas/3.0.6/core/error.json', error).errors, []);
        return error;
      };
      const key = () => randomUUID();

      // Discover.
      const capabilities = await call('get_ap_capabilities');
      assert.ok((capabilities.supported_protocols as string[]).includes('media_buy'));
      const products = (
        await call('get_products', {
          buying_mode: 'brief',
          brief: 'premium news display',
          brand: { domain: 'lifecycle.example' },
        })
      ).products as Json[];
      assert.ok(
        products.some((p) => p.product_id === 'dh_news_display'),
        'the brief finds the news display product',
      );
      const formats = (await call('list_creative_formats', {})).formats as Json[];
      assert.ok(formats.some((f) => f.format_id.id === 'display_300x250'));

      // Account.
      const domain = `lifecycle-${transport.toLowerCase()}-${randomUUID().slice(0, 8)}.example`;
      const synced = await call('sync_accounts', {
        idempotency_key: key(),
        accounts: [{ brand: { domain }, operator: domain, billing: 'operator' }],
      });
      const account = { account_id: (synced.accounts as Json[])[0]!.account_id as string };
      assert.ok(
        ((await call('list_accounts', {})).accounts as Json[]).some((a) => a.account_id === account.account_id),
      );

      // Create, at once.
      const flight = { start_time: inDays(clock, 10), end_time: inDays(clock, 40) };
      const createArgs = {
        idempotency_key: key(),
        account,
        brand: { domain },
        ...flight,
        packages: [{ product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 5000 }],
      };
      const buy = await call('create_media_buy', createArgs);
      assert.deepEqual([buy.status, buy.revision], ['pending_creatives', 1]);
      const replay = await call('create_media_buy', createArgs);
      assert.deepEqual([replay.media_buy_id, replay.replayed], [buy.media_buy_id, true]);
      await refused('create_media_buy', { ...createArgs, po_number: 'changed' }, 'IDEMPOTENCY_CONFLICT');
      const packageId = (buy.packages as Json[])[0]!.package_id as string;

      // Create, waiting for the publisher's approval.
      const accepted = await call('create_media_buy', {
        idempotency_key: key(),
        account,
        brand: { domain },
        ...flight,
        packages: [{ product_id: 'dh_homepage_takeover', pricing_option_id: 'takeover_day_flat', budget: 18000 }],
      });
      // Over A2A the worker may have taken it up before the Task was answered.
      assert.ok(
        transport === 'MCP'
          ? accepted.status === 'submitted'
          : ['submitted', 'working', 'completed'].includes(accepted.status),
        accepted.status,
      );
      await tasks.until((t) => t.taskId === accepted.task_id && t.status === 'completed');
      const approved = await call('get_task', { task_id: accepted.task_id });
      assert.equal(approved.status, 'completed');
      assert.deepEqual(validateSchema(responses['create_media_buy']!, approved.result).errors, []);

      // Creatives: upload, then assign; the buy waits for its start.
      const creativeId = `lifecycle-${randomUUID().slice(0, 8)}`;
      await call('sync_creatives', { idempotency_key: key(), account, creatives: [banner(server, creativeId)] });
      const assigned = await call('update_media_buy', {
        idempotency_key: key(),
        account,
        media_buy_id: buy.media_buy_id,
        packages: [{ package_id: packageId, creative_assignments: [{ creative_id: creativeId }] }],
      });
      assert.deepEqual([assigned.status, assigned.revision], ['pending_start', 2]);
      assert.ok(
        ((await call('list_creatives', { account })).creatives as Json[]).some((c) => c.creative_id === creativeId),
      );

      // Active once the flight starts.
      clock.advance(10 * day);
      await flightPass();
      const started = (
        (await call('get_media_buys', { account, media_buy_ids: [buy.media_buy_id] })).media_buys as Json[]
      )[0]!;
      assert.deepEqual([started.status, started.revision], ['active', 3]);

      // Pause and resume; a second resume is refused.
      const paused = await call('update_media_buy', {
        idempotency_key: key(),
        account,
        media_buy_id: buy.media_buy_id,
        paused: true,
      });
      assert.equal(paused.status, 'paused');
      assert.ok((paused.valid_actions as string[]).includes('resume'));
      const resumed = await call('update_media_buy', {
        idempotency_key: key(),
        account,
        media_buy_id: buy.media_buy_id,
        paused: false,
      });
      assert.equal(resumed.status, 'active');
      await refused(
        'update_media_buy',
        { idempotency_key: key(), account, media_buy_id: buy.media_buy_id, paused: false },
        'INVALID_STATE',
      );

      // Change the budget; the update's key replays within the window and expires after it.
      const budgetUpdate = {
        idempotency_key: key(),
        account,
        media_buy_id: buy.media_buy_id,
        packages: [{ package_id: packageId, budget: 6000 }],
      };
      const updated = await call('update_media_buy', budgetUpdate);
      assert.equal(updated.revision, 6);
      assert.equal((await call('update_media_buy', budgetUpdate)).replayed, true);

      // Delivery: some days served, within budget.
      clock.advance(5 * day);
      const delivery = await call('get_media_buy_delivery', { account, media_buy_ids: [buy.media_buy_id] });
      const totals = (delivery.media_buy_deliveries as Json[])[0]!.totals as Json;
      assert.ok(totals.impressions > 0, 'it delivered while active');
      assert.ok(totals.spend > 0 && totals.spend <= 6000, `spend ${totals.spend} within the budget`);

      clock.advance(2 * day);
      await refused('update_media_buy', budgetUpdate, 'IDEMPOTENCY_EXPIRED');

      // Cancel: final, and nothing after it.
      const canceled = await call('update_media_buy', {
        idempotency_key: key(),
        account,
        media_buy_id: buy.media_buy_id,
        canceled: true,
        cancellation_reason: 'Campaign ended early',
      });
      assert.deepEqual([canceled.status, canceled.valid_actions], ['canceled', []]);
      await refused(
        'update_media_buy',
        { idempotency_key: key(), account, media_buy_id: buy.media_buy_id, canceled: true },
        'NOT_CANCELLABLE',
      );
      await refused(
        'update_media_buy',
        { idempotency_key: key(), account, media_buy_id: buy.media_buy_id, paused: true },
        'INVALID_STATE',
      );
      await refused(
        'update_media_buy',
        { idempotency_key: key(), account, media_buy_id: 'mb_000000000000000000000000', paused: true },
        'MEDIA_BUY_NOT_FOUND',
      );
      assert.ok(
        ((await call('list_creatives', { account, filters: { creative_ids: [creativeId] } })).creatives as Json[])
          .length === 1,
        'the creative survives its buy',
      );
    });
  }
});
