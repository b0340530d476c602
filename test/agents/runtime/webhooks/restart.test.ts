import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Tenant } from '../../../../src/agents/runtime/index.ts';
import type { Database } from '../../../../src/db/database.ts';
import { loadMigrations, migrate } from '../../../../src/db/migrate.ts';
import { parseAllowList } from '../../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../../src/net/safe-fetch.ts';
import { buildApp } from '../../../../src/server.ts';
import { mcpClient } from '../../../support/agents.ts';
import { ManualClock } from '../../../support/clock.ts';
import { engines } from '../../../support/engines.ts';
import { anotherPool } from '../../../support/feed.ts';
import type { Json } from '../../../support/http.ts';
import { testConfig } from '../../../support/server.ts';
import { eventually, TestReceiver } from '../../../support/webhooks.ts';

/** A long task whose first run never finishes (its instance is stopped under it); later runs finish at once. */
function stallingTenant(): { tenant: Tenant; runs: () => number } {
  let runs = 0;
  return {
    runs: () => runs,
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
            if (runs++ === 0) await new Promise(() => {});
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

  /** An instance of the service on the shared schema, with its own pool, as a separate process would be. */
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
    await app.listen({ port: 0, host: '127.0.0.1' });
    apps.push(app);
    const { port } = app.server.address() as { port: number };
    return { app, url: `http://127.0.0.1:${port}` };
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
    const { tenant, runs } = stallingTenant();
    const first = await instance(tenant, {});
    const client = await mcpClient(first.url, '/restart');
    const accepted = JSON.parse(
      ((await client.callTool({ name: 'provision', arguments: { idempotency_key: randomUUID(), push_notification_config: { url: `${receiver.url}/hook` } } })) as Json).content[0].text,
    ) as Json;
    await client.close();
    await eventually(() => runs() === 1);
    await first.app.close();

    // The next instance starts after the first one's lease on the task has lapsed.
    const clock = new ManualClock();
    clock.advance(6 * 60_000);
    const second = await instance(tenant, {}, clock);
    receiver.trust(second.url, clock);
    await eventually(() => receiver.events.some((e) => e.task_id === accepted.task_id), 15_000);
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
      ((await client.callTool({ name: 'provision', arguments: { idempotency_key: randomUUID(), push_notification_config: { url: `${receiver.url}/hook` } } })) as Json).content[0].text,
    ) as Json;
    await client.close();
    // Wait for the failed attempt, then stop before the retry (2 to 4 s later).
    await eventually(async () => (await schemaDb.query<{ attempts: number }>('select attempts from webhook_deliveries where task_id = $1', [accepted.task_id]))[0]?.attempts === 1);
    await eventually(() => receiver.statuses.includes(503));
    await first.app.close();
    assert.equal(receiver.events.filter((e) => e.task_id === accepted.task_id).length, 0);

    const second = await instance(tenant, { AGENT_WEBHOOK_RETRY_BASE_MS: '50' });
    seller = second.url;
    await eventually(() => receiver.events.some((e) => e.task_id === accepted.task_id), 15_000);
    assert.equal(receiver.events.filter((e) => e.task_id === accepted.task_id).length, 1);
    const delivery = async () => (await schemaDb.query<{ state: string; attempts: number }>('select state, attempts from webhook_deliveries where task_id = $1', [accepted.task_id]))[0]!;
    await eventually(async () => (await delivery()).state === 'delivered');
    // The new instance may try once before the receiver can reach its keys (answered 5xx, retried).
    assert.ok((await delivery()).attempts >= 2);
    await second.app.close();
  });
});
