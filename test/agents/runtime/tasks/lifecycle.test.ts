import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TaskState } from '@a2a-js/sdk';
import type { TaskEvent } from '../../../../src/agents/index.ts';
import type { Tenant } from '../../../../src/agents/runtime/index.ts';
import { AgentError } from '../../../../src/protocol/errors.ts';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { a2aClient, mcpClient } from '../../../support/agents.ts';
import { eachEngine } from '../../../support/engines.ts';
import { Reports } from '../../../support/events.ts';
import type { Json } from '../../../support/http.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';

/**
 * Long tasks that wait on the test: each run reports progress and then a gate under its `name`,
 * which the test opens to let it finish.
 */
function gatedTenant() {
  const gates = new Reports<{ name: string; open: () => void }>();
  const seen = new Map<string, Json>();
  const tenant: Tenant = {
    name: 'lifecycle',
    path: '/lifecycle',
    description: 'Long tasks a test steps through.',
    protocols: ['media_buy'],
    // One known account; the lookup runs on the database it is given, as a tenant's would.
    resolveAccount: async (ref, { db, principal }) => {
      const [row] = await db.query<{ ok: number }>('select 1 as ok');
      if (ref['account_id'] !== 'acct-1' || !row)
        throw new AgentError('ACCOUNT_NOT_FOUND', undefined, { field: 'account.account_id' });
      return { account_id: 'acct-1', for: principal.subject };
    },
    tasks: [
      {
        name: 'whoami',
        description: 'The caller, as a short task sees it.',
        input: { type: 'object' },
        mutates: false,
        handler: async (_args, ctx) => ({ principal: ctx.principal, ...(ctx.account ? { account: ctx.account } : {}) }),
      },
      {
        // A name of enums/task-type.json, so get_task's answer validates against the published schema.
        name: 'sync_catalogs',
        description: 'Syncs a catalog, slowly; writes a row once it may finish.',
        input: {
          type: 'object',
          properties: { name: { type: 'string' }, answer: { type: 'string' } },
          required: ['name'],
        },
        output: { type: 'object', properties: { synced: { type: 'string' } }, required: ['synced'] },
        mutates: true,
        longRunning: true,
        handler: async (args, ctx) => {
          const name = String(args['name']);
          seen.set(name, { principal: ctx.principal, ...(ctx.account ? { account: ctx.account } : {}) });
          ctx.progress({ percentage: 40, current_step: 'validating items' });
          await new Promise<void>((resolve, reject) => {
            gates.add({ name, open: resolve });
            ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error));
          });
          await ctx.db.query('insert into lifecycle_effects (name) values ($1)', [name]);
          return args['answer'] === 'wrong' ? { synced: 42 } : { synced: name };
        },
      },
    ],
  };
  return { tenant, gates, seen };
}

eachEngine('long-running tasks', (engine) => {
  let server: TestServer;
  let client: Client;
  const { tenant, gates, seen } = gatedTenant();
  const call = async (name: string, args: Record<string, unknown>) =>
    JSON.parse(((await client.callTool({ name, arguments: args })) as Json).content[0].text) as Json;
  const start = (name: string, extra: Record<string, unknown> = {}) =>
    call('sync_catalogs', { idempotency_key: randomUUID(), name, ...extra });
  const effects = async (name: string) =>
    (await server.db.query('select 1 from lifecycle_effects where name = $1', [name])).length;
  /** Resolves, with the function that opens it, once the run for `name` waits at its gate. */
  const gate = async (name: string) => (await gates.until((g) => g.name === name)).open;
  const tasks = new Reports<TaskEvent>();
  const changed = (taskId: string, status: TaskEvent['status']) =>
    tasks.until((t) => t.taskId === taskId && t.status === status);

  before(async () => {
    server = await startTestServer(engine, {
      deps: { tenants: [tenant] },
      extend: (app, db) => {
        app.taskWorker!.watch(tasks.add);
        return db.exec('create table lifecycle_effects (name text not null)');
      },
    });
    client = await mcpClient(server.url, '/lifecycle');
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('runs as the caller that started it, reports progress while working, and completes; get_task answers the published tasks/get shape', async () => {
    const name = randomUUID();
    const accepted = await start(name);
    assert.equal(accepted.status, 'submitted');
    await changed(accepted.task_id, 'working');
    const working = await call('get_task', { task_id: accepted.task_id });
    assert.equal(working.status, 'working');
    assert.deepEqual(working.progress, { percentage: 40, current_step: 'validating items' });
    assert.deepEqual(validateSchema('/schemas/3.0.6/core/tasks-get-response.json', working).errors, []);

    const caller = await call('whoami', {});
    assert.ok(caller.principal.organization, 'the test credential acts for an organization');
    assert.deepEqual(seen.get(name), { principal: caller.principal });

    (await gate(name))();
    await changed(accepted.task_id, 'completed');
    const done = await call('get_task', { task_id: accepted.task_id });
    assert.deepEqual(done.result, { synced: name });
    assert.ok(done.completed_at);
    assert.deepEqual(validateSchema('/schemas/3.0.6/core/tasks-get-response.json', done).errors, []);
    assert.equal(await effects(name), 1);
  });

  it('gives handlers the account the request names, resolved by the tenant, or its error', async () => {
    const caller = await call('whoami', {});
    assert.equal(caller.account, undefined, 'no account asked for, none resolved');
    assert.deepEqual((await call('whoami', { account: { account_id: 'acct-1' } })).account, {
      account_id: 'acct-1',
      for: caller.principal.subject,
    });
    const unknown = await call('whoami', { account: { account_id: 'nope' } });
    assert.equal(unknown.code, 'ACCOUNT_NOT_FOUND');
    assert.equal(unknown.field, 'account.account_id');
  });

  it("resolves a long task's account without holding its transaction open, so other calls go on while it waits", async () => {
    const name = randomUUID();
    const accepted = await start(name, { account: { account_id: 'acct-1' } });
    const open = await gate(name);
    // On PGlite, a transaction opened for the account would hold the one connection until the gate opens.
    assert.equal((await call('get_task', { task_id: accepted.task_id })).status, 'working');
    assert.deepEqual(seen.get(name)?.account, {
      account_id: 'acct-1',
      for: (await call('whoami', {})).principal.subject,
    });
    open();
    await changed(accepted.task_id, 'completed');
  });

  it('cancels over MCP: the handler stops, nothing it did is kept, and canceled is not written over', async () => {
    const name = randomUUID();
    const accepted = await start(name);
    const open = await gate(name);
    const canceled = await call('cancel_task', { task_id: accepted.task_id });
    assert.equal(canceled.status, 'canceled');
    // Even a gate opened now finds the handler gone.
    open();
    await changed(accepted.task_id, 'dropped');
    assert.equal((await call('get_task', { task_id: accepted.task_id })).status, 'canceled');
    assert.equal(await effects(name), 0);
    assert.equal((await call('cancel_task', { task_id: accepted.task_id })).status, 'canceled');
  });

  it("refuses to cancel a finished task, and another caller's task is not found", async () => {
    const name = randomUUID();
    const accepted = await start(name);
    (await gate(name))();
    await changed(accepted.task_id, 'completed');
    assert.equal((await call('cancel_task', { task_id: accepted.task_id })).code, 'INVALID_STATE');
    assert.equal((await call('get_task', { task_id: randomUUID() })).code, 'TASK_NOT_FOUND');
  });

  it('answers TASK_NOT_FOUND, not an internal error, for an id the uuid format passes but no task can have', async () => {
    const id = `urn:uuid:${randomUUID()}`;
    assert.equal((await call('get_task', { task_id: id })).code, 'TASK_NOT_FOUND');
    assert.equal((await call('cancel_task', { task_id: id })).code, 'TASK_NOT_FOUND');
  });

  it('fails a task whose result does not match its output schema (the suite checks every answer)', async () => {
    const name = randomUUID();
    const accepted = await start(name, { answer: 'wrong' });
    (await gate(name))();
    await changed(accepted.task_id, 'failed');
    const failed = await call('get_task', { task_id: accepted.task_id });
    assert.equal(failed.error.code, 'INTERNAL_ERROR');
    assert.equal(await effects(name), 0);
  });

  it('gives up after the capped number of runs with an error the caller can read', async () => {
    const name = randomUUID();
    const accepted = await start(name);
    const open = await gate(name);
    // As if three instances in turn had claimed it and died: its lease lapsed on the third run.
    await server.db.query(`update agent_tasks set attempts = 3, lease_until = $2 where task_id = $1`, [
      accepted.task_id,
      new Date(Date.now() - 1000),
    ]);
    await changed(accepted.task_id, 'failed');
    const failed = await call('get_task', { task_id: accepted.task_id });
    assert.equal(failed.error.code, 'INTERNAL_ERROR');
    assert.match(failed.error.message, /started 3 times/);
    open();
  });

  it('over A2A, answers a real Task that tasks/get reads and tasks/cancel cancels', async () => {
    const a2a = await a2aClient(server.url, '/lifecycle');
    const name = randomUUID();
    const answer = await a2a.sendMessage({
      tenant: '',
      message: {
        messageId: randomUUID(),
        contextId: '',
        taskId: '',
        role: 1,
        parts: [
          {
            content: {
              $case: 'data',
              value: {
                skill: 'sync_catalogs',
                parameters: { idempotency_key: randomUUID(), name, context: { trace: name } },
              },
            },
            metadata: undefined,
            filename: '',
            mediaType: 'application/json',
          },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: undefined,
    });
    assert.ok('status' in answer, `expected a Task, got ${JSON.stringify(answer)}`);
    const taskId = answer.id;
    // The worker may have claimed it before the answer was built.
    assert.ok([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING].includes(answer.status!.state));
    const statusData = answer.status!.message!.parts[0]!.content as { $case: 'data'; value: Json };
    assert.deepEqual(statusData.value['context'], { trace: name }, "the accepting answer echoes the call's context");
    await gate(name);
    const got = await a2a.getTask({ tenant: '', id: taskId, historyLength: undefined });
    assert.equal(got.status?.state, TaskState.TASK_STATE_WORKING);
    const canceled = await a2a.cancelTask({ tenant: '', id: taskId, metadata: undefined });
    assert.equal(canceled.status?.state, TaskState.TASK_STATE_CANCELED);
    assert.equal((await call('get_task', { task_id: taskId })).status, 'canceled');
    assert.equal(await effects(name), 0);
  });
});
