import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { DeliveryEvent, TaskEvent } from '../../../../src/agents/index.ts';
import type { Database } from '../../../../src/db/database.ts';
import { loadMigrations, migrate, type Migration } from '../../../../src/db/migrate.ts';
import { parseAllowList } from '../../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../../src/net/safe-fetch.ts';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { buildApp } from '../../../../src/app/build-app.ts';
import { ManualClock } from '../../../support/clock.ts';
import { engines } from '../../../support/engines.ts';
import { Reports } from '../../../support/events.ts';
import { anotherPool } from '../../../support/feed.ts';
import type { Json } from '../../../support/http.ts';
import { testConfig, type TestServer } from '../../../support/server.ts';
import { TestReceiver } from '../../../support/webhooks.ts';
import { succeeds } from '../test-controller/harness.ts';
import { buyer, createArgs, reconnect, type Buyer } from './harness.ts';

const CREATE_RESPONSE = '/schemas/3.0.6/media-buy/create-media-buy-response.json';
const WEBHOOK = '/schemas/3.0.6/core/mcp-webhook-payload.json';
/** The demo catalog's exclusive takeover, which waits for the publisher's approval. */
const takeover = { product_id: 'dh_homepage_takeover', pricing_option_id: 'takeover_day_flat', budget: 18000 };
/** Where this file's buyers receive their webhooks, each task under a path of its own. */
const hooks = '/hooks/restart/';

/** An instance of the test deployment, with what its task worker and webhook deliverer reported from before it started. */
interface Instance {
  server: TestServer;
  tasks: Reports<TaskEvent>;
  attempts: Reports<DeliveryEvent>;
}

/** An async create_media_buy of the first instance, with the buyer's endpoint for its webhook. */
interface Accepted {
  taskId: string;
  path: string;
  args: Record<string, unknown>;
}

/**
 * The sales agent's promise to a buyer of an async create_media_buy: exactly one signed webhook per
 * completion, even when the instance that completed the task stops (as in a rolling restart)
 * before that webhook was delivered. Both ways a create completes later are taken on one
 * instance: the publisher's approval of the takeover (the worker books the buy) and a held task
 * completed through the sandbox test controller (`completeTask`). Each completion commits with its
 * webhook in the outbox; the buyer's endpoint refuses that instance's only attempt (its clock does
 * not move, so the retry never falls due there); the instance closes (`app.close()`, as a rolling
 * restart stops it); the next instance on the same database sends each retry once, with the key of
 * the first attempt, and never again. One restart serves every test: an instance costs seconds.
 */
describe('[postgres] sales agent: async create_media_buy webhooks across a restart', () => {
  let schemaDb: Database;
  let migrations: Migration[];
  const clock = new ManualClock();
  const receiver = new TestReceiver();
  const open = new Set<TestServer>();
  /** The serving instance, where the receiver resolves the seller's keys. */
  let seller = '';
  let second: Instance;
  const buyers: Buyer[] = [];
  /** The same buyers, reconnected to the second instance. */
  const again: Buyer[] = [];
  let approved: Accepted;
  let held: Accepted & { result: Json };

  /** Another process of the service on the shared schema, with its own pool; it becomes the one the receiver trusts. */
  const start = async (): Promise<Instance> => {
    const db = await anotherPool(schemaDb, 4);
    const app = await buildApp({
      config: testConfig({ AGENTS: 'true' }),
      db,
      migrations,
      clock,
      fetcher: new SafeFetch({ allow: parseAllowList(new URL(receiver.url).host) }),
    });
    const tasks = new Reports<TaskEvent>();
    const attempts = new Reports<DeliveryEvent>();
    app.taskWorker!.watch(tasks.add);
    app.webhookDeliverer!.watch(attempts.add);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const server: TestServer = {
      app,
      db,
      url: `http://127.0.0.1:${port}`,
      close: () => app.close().finally(() => open.delete(server)),
    };
    open.add(server);
    seller = server.url;
    return { server, tasks, attempts };
  };
  const outbox = (taskId: string) =>
    schemaDb.query<{ state: string; attempts: number; idempotency_key: string }>(
      'select state, attempts, idempotency_key from webhook_deliveries where task_id = $1',
      [taskId],
    );
  const endpoint = () => {
    const path = `${hooks}${randomUUID()}`;
    return {
      path,
      config: { url: `${receiver.url}${path}`, authentication: { schemes: ['HTTP_MESSAGE_SIGNATURES'] } },
    };
  };
  const arrivedAt = (path: string) => receiver.requests.filter((r) => new URL(r.url).pathname === path);
  const webhooksOf = (taskId: string) => receiver.events.filter((e) => e.task_id === taskId);
  const delivered = (taskId: string) => second.attempts.until((a) => a.taskId === taskId && a.outcome !== 'retrying');

  /** The one verified webhook of the task, sent by the second instance at its second attempt, with the key the outbox gave the event. */
  const onlyWebhook = async ({ taskId, path }: Accepted) => {
    const attempt = await delivered(taskId);
    assert.deepEqual([attempt.outcome, attempt.attempts], ['delivered', 2], attempt.error);
    const received = webhooksOf(taskId);
    assert.equal(received.length, 1, 'one verified webhook for the completion');
    assert.equal(arrivedAt(path).length, 1, 'and no other request for it, not even a duplicate the receiver dropped');
    const [webhook] = received;
    assert.deepEqual(validateSchema(WEBHOOK, webhook).errors, [], 'the published webhook envelope');
    assert.deepEqual(
      [webhook!.task_id, webhook!.task_type, webhook!.status],
      [taskId, 'create_media_buy', 'completed'],
    );
    const rows = await outbox(taskId);
    assert.deepEqual(
      rows.map((d) => [d.state, d.attempts]),
      [['delivered', 2]],
    );
    assert.equal(webhook!.idempotency_key, rows[0]!.idempotency_key);
    return webhook!;
  };

  before(async () => {
    schemaDb = await engines.find((e) => e.name === 'postgres')!.open();
    migrations = await loadMigrations();
    await migrate(schemaDb, migrations);
    await receiver.listen();
    receiver.trust(() => seller, clock);
    // The buyer's endpoint is down while the first instance lives: it refuses that instance's two attempts.
    receiver.answerOnly = hooks;
    receiver.answerWith = [503, 503];

    const first = await start();
    buyers.push(await buyer(first.server, clock), await buyer(first.server, clock, { sandbox: true }));
    const [b, sandbox] = buyers as [Buyer, Buyer];

    // The takeover waits for the publisher's approval, which the first instance's worker gives: it
    // books the buy and queues the webhook in that one transaction.
    const takeoverHook = endpoint();
    const takeoverArgs = createArgs(clock, b.account, b.domain, {
      packages: [takeover],
      push_notification_config: takeoverHook.config,
    });
    const accepted = await b.call('create_media_buy', takeoverArgs);
    assert.equal(accepted.status, 'submitted');
    approved = { taskId: accepted.task_id, path: takeoverHook.path, args: takeoverArgs };
    await first.tasks.until((t) => t.taskId === approved.taskId && t.status === 'completed');

    // A held task, completed through the test controller: completion and webhook in its transaction.
    const heldHook = endpoint();
    const taskId = `task_restart_${randomUUID()}`;
    await succeeds(sandbox, 'force_create_media_buy_arm', { arm: 'submitted', task_id: taskId });
    const heldArgs = createArgs(clock, sandbox.account, sandbox.domain, { push_notification_config: heldHook.config });
    const waiting = await sandbox.call('create_media_buy', heldArgs);
    assert.deepEqual([waiting.status, waiting.task_id], ['submitted', taskId]);
    const result = {
      media_buy_id: `mb_restart_${randomUUID().slice(0, 8)}`,
      status: 'active',
      packages: [{ package_id: 'pkg-0', product_id: 'dh_news_display', budget: 30000 }],
    };
    await succeeds(sandbox, 'force_task_completion', { task_id: taskId, result });
    held = { taskId, path: heldHook.path, args: heldArgs, result };

    for (const { taskId } of [approved, held]) {
      const refused = await first.attempts.until((a) => a.taskId === taskId);
      assert.deepEqual([refused.outcome, refused.attempts], ['retrying', 1], refused.error);
    }
    for (const b of buyers) await b.client.close();
    await first.server.close();
    for (const { taskId, path } of [approved, held]) {
      assert.deepEqual(
        (await outbox(taskId)).map((d) => [d.state, d.attempts]),
        [['pending', 1]],
        'the webhook waits in the outbox',
      );
      assert.equal(arrivedAt(path).length, 0, 'nothing reached the buyer while the first instance lived');
    }

    second = await start();
    for (const b of buyers) again.push(await reconnect(b, second.server, clock));
    // Started on the first instance's clock, the second found nothing due at its start: it is
    // listening (and serving the keys the receiver fetches) when the retries fall due.
    clock.advance(60_000);
    second.server.app.webhookDeliverer!.wake();
  });
  after(async () => {
    // The first instance's buyers were closed before its stop, unless the setup failed first.
    for (const b of [...buyers, ...again]) await b.client.close().catch(() => {});
    for (const server of open) await server.close().catch(() => {});
    await receiver.close();
    await schemaDb.close();
  });

  it('sends the approved takeover’s webhook once, from the next instance, which shows the booked buy', async () => {
    const webhook = await onlyWebhook(approved);
    const buy = webhook.result as Json;
    assert.deepEqual(validateSchema(CREATE_RESPONSE, buy).errors, [], 'the result is a booked media buy');
    assert.match(buy.media_buy_id, /^mb_/);
    assert.equal(buy.packages[0].product_id, 'dh_homepage_takeover');

    const b = again[0]!;
    const task = await b.call('get_task', { task_id: approved.taskId });
    assert.deepEqual([task.status, task.result.media_buy_id], ['completed', buy.media_buy_id]);
    const buys = (await b.get({ media_buy_ids: [buy.media_buy_id] })).media_buys as Json[];
    assert.deepEqual(
      buys.map((m) => [m.media_buy_id, m.status]),
      [[buy.media_buy_id, 'pending_creatives']],
      'booked, waiting for creatives',
    );
    // The buyer retrying its create against the new instance gets the same task back, and no second webhook.
    const replay = await b.call('create_media_buy', approved.args);
    assert.deepEqual([replay.status, replay.task_id, replay.replayed], ['submitted', approved.taskId, true]);
    assert.equal((await outbox(approved.taskId)).length, 1);
  });

  it('sends the webhook of a held task the test controller completed once, from the next instance', async () => {
    const webhook = await onlyWebhook(held);
    assert.deepEqual(webhook.result, held.result, 'the forced result, verbatim');
    const task = await again[1]!.call('get_task', { task_id: held.taskId });
    assert.deepEqual([task.status, task.result], ['completed', held.result]);
  });

  it('sends nothing more when the next instance goes over its outbox again, past every lease and retry', async () => {
    for (const { taskId } of [approved, held]) await delivered(taskId);
    const heard = second.attempts.all.length;
    clock.advance(3_600_000);
    const deliverer = second.server.app.webhookDeliverer!;
    const pass = deliverer.nextPass();
    deliverer.wake();
    await pass;
    assert.equal(second.attempts.all.length, heard, 'no attempt in the later pass');
    assert.deepEqual(
      receiver.statuses,
      [503, 503, 200, 200],
      'two refused attempts before the restart, one delivery of each after',
    );
    for (const { taskId, path } of [approved, held]) {
      assert.equal(webhooksOf(taskId).length, 1);
      assert.equal(arrivedAt(path).length, 1);
    }
  });
});
