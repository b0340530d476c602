import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TaskEvent } from '../../../../src/agents/index.ts';
import { completeTask, enqueueWebhookEvent, type Tenant } from '../../../../src/agents/runtime/index.ts';
import { parseAllowList } from '../../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../../src/net/safe-fetch.ts';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { mcpClient } from '../../../support/agents.ts';
import { eachEngine } from '../../../support/engines.ts';
import { Reports } from '../../../support/events.ts';
import type { Json } from '../../../support/http.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { TestReceiver } from '../../../support/webhooks.ts';

/**
 * A task whose handler decides, per call, to answer at once or `submitted` (run again by a worker,
 * or held until something completes it), a task that completes held ones, and a background pass
 * that sends a webhook of its own.
 */
function deferringTenant(receiverUrl: () => string) {
  const runs: Array<{ name: string; background: boolean }> = [];
  const tenant: Tenant = {
    name: 'deferring',
    path: '/deferring',
    description: 'Answers now or later.',
    protocols: ['media_buy'],
    tasks: [
      {
        // A name of enums/task-type.json, so get_task's answer validates against the published schema.
        name: 'create_media_buy',
        description: 'Books now, or later when asked to wait.',
        input: {
          type: 'object',
          properties: { name: { type: 'string' }, wait: { enum: ['worker', 'held'] }, task_id: { type: 'string' } },
          required: ['name'],
        },
        output: { type: 'object', properties: { booked: { type: 'string' } }, required: ['booked'] },
        mutates: true,
        mayDefer: true,
        handler: async (args, ctx) => {
          const name = String(args['name']);
          runs.push({ name, background: ctx.background });
          if (args['wait'] !== undefined && !ctx.background) {
            return ctx.defer({
              held: args['wait'] === 'held',
              message: `Waiting for approval of ${name}.`,
              ...(args['task_id'] ? { taskId: String(args['task_id']) } : {}),
            });
          }
          await ctx.db.query('insert into deferral_effects (name) values ($1)', [name]);
          return { booked: name };
        },
      },
      {
        name: 'approve',
        description: 'Completes a held task of the caller with a result.',
        input: {
          type: 'object',
          properties: { task_id: { type: 'string' }, booked: { type: 'string' } },
          required: ['task_id'],
        },
        mutates: false,
        handler: async (args, ctx) => {
          const row = await ctx.atomically((tx) =>
            completeTask(tx, ctx.clock, ctx.tenant.name, ctx.principal, String(args['task_id']), {
              status: 'completed',
              result: { booked: String(args['booked']) },
            }),
          );
          ctx.webhooksQueued();
          return { status: row.status };
        },
      },
    ],
    passes: [
      {
        name: 'report',
        intervalMs: 3_600_000,
        async run({ db, clock, webhooksQueued }) {
          await db.transaction((tx) =>
            enqueueWebhookEvent(
              tx,
              {
                tenant: 'deferring',
                url: `${receiverUrl()}/hooks/report`,
                payload: { notification_type: 'scheduled', sent_at: clock.now().toISOString() },
              },
              clock.now(),
            ),
          );
          webhooksQueued();
        },
      },
    ],
  };
  return { tenant, runs };
}

eachEngine('tasks a handler defers', (engine) => {
  let server: TestServer;
  let client: Client;
  const receiver = new TestReceiver();
  const { tenant, runs } = deferringTenant(() => receiver.url);
  const tasks = new Reports<TaskEvent>();
  const call = async (name: string, args: Record<string, unknown>) =>
    JSON.parse(((await client.callTool({ name, arguments: args })) as Json).content[0].text) as Json;
  const create = (name: string, extra: Record<string, unknown> = {}) =>
    call('create_media_buy', {
      idempotency_key: randomUUID(),
      name,
      push_notification_config: {
        url: `${receiver.url}/hooks/ap/${name}`,
        authentication: { schemes: ['HTTP_MESSAGE_SIGNATURES'] },
      },
      ...extra,
    });
  const effects = async (name: string) =>
    (await server.db.query('select 1 from deferral_effects where name = $1', [name])).length;
  const webhooksOf = (taskId: string) => receiver.events.filter((e) => e.task_id === taskId);

  before(async () => {
    await receiver.listen();
    server = await startTestServer(engine, {
      deps: { tenants: [tenant], fetcher: new SafeFetch({ allow: parseAllowList(new URL(receiver.url).host) }) },
      extend: (app, db) => {
        app.taskWorker!.watch(tasks.add);
        return db.exec('create table deferral_effects (name text not null)');
      },
    });
    receiver.trust(server.url);
    client = await mcpClient(server.url, '/deferring');
  });
  after(async () => {
    await client.close();
    await server.close();
    await receiver.close();
  });

  it('answers at once when the handler does not defer', async () => {
    const answer = await create('now');
    assert.equal(answer.booked, 'now');
    assert.equal(await effects('now'), 1);
  });

  it('answers submitted when it defers, then a worker runs the handler again in the background and the caller gets one signed webhook', async () => {
    const accepted = await create('later', { wait: 'worker' });
    assert.equal(accepted.status, 'submitted');
    assert.equal(accepted.message, 'Waiting for approval of later.');
    assert.match(accepted.task_id, /^[0-9a-f-]{36}$/);
    await tasks.until((t) => t.taskId === accepted.task_id && t.status === 'completed');
    assert.deepEqual(
      runs.filter((r) => r.name === 'later'),
      [
        { name: 'later', background: false },
        { name: 'later', background: true },
      ],
    );
    assert.equal(await effects('later'), 1, 'only the background run wrote');
    const done = await call('get_task', { task_id: accepted.task_id });
    assert.deepEqual(done.result, { booked: 'later' });
    assert.deepEqual(validateSchema('/schemas/3.0.6/core/tasks-get-response.json', done).errors, []);
    await receiver.until(() => webhooksOf(accepted.task_id).length === 1);
    assert.equal(webhooksOf(accepted.task_id)[0]!.status, 'completed');
  });

  it('holds a task under the id the caller named until it is completed, then sends its result once; the id may be named again once it is finished', async () => {
    const taskId = `sandbox-task-${randomUUID()}`;
    const accepted = await create('held', { wait: 'held', task_id: taskId });
    assert.deepEqual([accepted.task_id, accepted.status], [taskId, 'submitted']);
    const waiting = await call('get_task', { task_id: taskId });
    assert.equal(waiting.status, 'submitted', 'no worker takes a held task');

    const busy = await call('create_media_buy', {
      idempotency_key: randomUUID(),
      name: 'again',
      wait: 'held',
      task_id: taskId,
    });
    assert.equal(busy.code, 'CONFLICT', 'an open task keeps its id');

    assert.deepEqual(await call('approve', { task_id: taskId, booked: 'by approval' }), { status: 'completed' });
    const done = await call('get_task', { task_id: taskId });
    assert.deepEqual([done.status, done.result], ['completed', { booked: 'by approval' }]);
    await receiver.until(() => webhooksOf(taskId).length === 1);
    assert.deepEqual(webhooksOf(taskId)[0]!.result, { booked: 'by approval' });

    const twice = await call('approve', { task_id: taskId, booked: 'again' });
    assert.equal(twice.code, 'INVALID_STATE');
    assert.equal((await call('approve', { task_id: 'no-such-task' })).code, 'TASK_NOT_FOUND');

    const renamed = await create('held-again', { wait: 'held', task_id: taskId });
    assert.equal(renamed.task_id, taskId);
    assert.equal((await call('get_task', { task_id: taskId })).status, 'submitted');
    assert.ok(!runs.some((r) => r.name.startsWith('held') && r.background), 'held tasks never ran in the background');
  });

  it('refuses to complete a task a worker runs', async () => {
    const accepted = await create('worker-run', { wait: 'worker' });
    await tasks.until((t) => t.taskId === accepted.task_id && t.status === 'completed');
    assert.equal((await call('approve', { task_id: accepted.task_id, booked: 'x' })).code, 'INVALID_STATE');
  });

  it("runs a tenant's background pass, whose webhooks leave signed", async () => {
    const pass = server.app.agentPasses!.get('deferring:report')!;
    const before = receiver.events.filter((e) => e.notification_type === 'scheduled').length;
    const ran = pass.nextPass();
    pass.wake();
    await ran;
    await receiver.until(
      () => receiver.events.filter((e) => e.notification_type === 'scheduled').length === before + 1,
    );
  });
});
