import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { DeliveryEvent } from '../../../../src/agents/index.ts';
import type { Tenant } from '../../../../src/agents/runtime/index.ts';
import type { Database } from '../../../../src/db/database.ts';
import { loadMigrations, migrate } from '../../../../src/db/migrate.ts';
import { parseAllowList } from '../../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../../src/net/safe-fetch.ts';
import { buildApp } from '../../../../src/app/build-app.ts';
import { mcpClient } from '../../../support/agents.ts';
import { ManualClock } from '../../../support/clock.ts';
import { engines } from '../../../support/engines.ts';
import { Reports } from '../../../support/events.ts';
import { anotherPool } from '../../../support/feed.ts';
import type { Json } from '../../../support/http.ts';
import { testConfig } from '../../../support/server.ts';
import { TestReceiver } from '../../../support/webhooks.ts';

/**
 * A long task whose first run never finishes (its instance is stopped under it); later runs finish
 * at once. `stalled` resolves when the first run has started.
 */
function stallingTenant(): { tenant: Tenant; runs: () => number; stalled: Promise<void> } {
  let runs = 0;
  const { promise: stalled, resolve: stall } = Promise.withResolvers<void>();
  return {
    runs: () => runs,
    stalled,
    tenant: {
      name: 'restart',
      path: '/restart',
      description: 'A task that outlives its instance.',
      protocols: ['media_buy'],
      tasks: [
        {
          name: 'provision',
          description: 'Provisions something slowly.',
          input: { type: 'object', properties: { push_notification_config: { type: 'object' } } },
          mutates: true,
          longRunning: true,
          handler: async () => {
            if (runs++ === 0) {
              stall();
              await new Promise(() => {});
            }
            return { provisioned: true };
          },
        },
      ],
    },
  };
}

describe('[postgres] a restart between accepting a task and delivering its webhook', () => {
  let schemaDb: Database;
  const receiver = new TestReceiver();
  const apps: FastifyInstance[] = [];

  /**
   * An instance of the service on the shared schema, with its own pool, as a separate process would
   * be. `attempts` hears its webhook deliverer from before it starts, so no attempt goes unheard.
   */
  const instance = async (tenant: Tenant, env: Record<string, string>, clock?: ManualClock) => {
    const db = await anotherPool(schemaDb, 4);
    const app = await buildApp({
      config: testConfig(env),
      db,
      migrations: await loadMigrations(),
      tenants: [tenant],
      fetcher: new SafeFetch({ allow: parseAllowList(new URL(receiver.url).host) }),
      ...(clock ? { clock } : {}),
    });
    const attempts = new Reports<DeliveryEvent>();
    app.webhookDeliverer!.watch(attempts.add);
    await app.listen({ port: 0, host: '127.0.0.1' });
    apps.push(app);
    const { port } = app.server.address() as { port: number };
    const attempt = (taskId: string, outcome: DeliveryEvent['outcome']) =>
      attempts.until((a) => a.taskId === taskId && a.outcome === outcome);
    return { app, url: `http://127.0.0.1:${port}`, attempt };
  };

  before(async () => {
    schemaDb = await engines.find((e) => e.name === 'postgres')!.open();
    await migrate(schemaDb, await loadMigrations());
    await receiver.listen();
  });
  after(async () => {
    for (const app of apps) await app.close().catch(() => {});
    await receiver.close();
    await schemaDb.close();
  });

  it('delivers the webhook from the next instance when the first stopped before finishing the task', async () => {
    const { tenant, runs, stalled } = stallingTenant();
    const first = await instance(tenant, {});
    const client = await mcpClient(first.url, '/restart');
    const accepted = JSON.parse(
      (
        (await client.callTool({
          name: 'provision',
          arguments: { idempotency_key: randomUUID(), push_notification_config: { url: `${receiver.url}/hook` } },
        })) as Json
      ).content[0].text,
    ) as Json;
    await client.close();
    await stalled;
    await first.app.close();

    // The next instance starts after the first one's lease on the task has lapsed.
    const clock = new ManualClock();
    clock.advance(6 * 60_000);
    const second = await instance(tenant, {}, clock);
    receiver.trust(second.url, clock);
    // The receiver has processed the event before it answers the 200 this attempt recorded.
    await second.attempt(accepted.task_id, 'delivered');
    const events = receiver.events.filter((e) => e.task_id === accepted.task_id);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.status, 'completed');
    assert.deepEqual(events[0]!.result, { provisioned: true });
    assert.equal(runs(), 2);
    await second.app.close();
  });

  it('delivers from the next instance a webhook whose first attempt failed before the stop', async () => {
    const { tenant } = stallingTenant();
    // This tenant's first run stalls; use it up on a task nobody waits for.
    const first = await instance(tenant, { AGENT_WEBHOOK_RETRY_BASE_MS: '4000' });
    let seller = first.url;
    receiver.trust(() => seller);
    const client = await mcpClient(first.url, '/restart');
    await client.callTool({ name: 'provision', arguments: { idempotency_key: randomUUID() } });
    receiver.answerWith = [503];
    const accepted = JSON.parse(
      (
        (await client.callTool({
          name: 'provision',
          arguments: { idempotency_key: randomUUID(), push_notification_config: { url: `${receiver.url}/hook` } },
        })) as Json
      ).content[0].text,
    ) as Json;
    await client.close();
    // Wait for the failed attempt, then stop before the retry (2 to 4 s later).
    const failed = await first.attempt(accepted.task_id, 'retrying');
    assert.equal(failed.attempts, 1);
    assert.ok(receiver.statuses.includes(503));
    await first.app.close();
    assert.equal(receiver.events.filter((e) => e.task_id === accepted.task_id).length, 0);

    const second = await instance(tenant, { AGENT_WEBHOOK_RETRY_BASE_MS: '50' });
    seller = second.url;
    await second.attempt(accepted.task_id, 'delivered');
    assert.equal(receiver.events.filter((e) => e.task_id === accepted.task_id).length, 1);
    const [delivery] = await schemaDb.query<{ state: string; attempts: number }>(
      'select state, attempts from webhook_deliveries where task_id = $1',
      [accepted.task_id],
    );
    assert.equal(delivery!.state, 'delivered');
    // The new instance may try once before the receiver can reach its keys (answered 5xx, retried).
    assert.ok(delivery!.attempts >= 2);
    await second.app.close();
  });
});
