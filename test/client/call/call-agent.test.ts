import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  callApAgent,
  getCapabilities,
  listTools,
  ApAgentError,
  WebhookInbox,
  type TaskUpdate,
} from '../../../src/client/index.ts';
import { fetchThrough } from '../../../src/client/agents/index.ts';
import { publicTestCredential } from '../../../src/config.ts';
import { parseAllowList } from '../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { testTenant } from '../../support/agents.ts';
import { engines } from '../../support/engines.ts';
import { adminKey, startTestServer, type TestServer } from '../../support/server.ts';
import { TestReceiver } from '../../support/webhooks.ts';

const fast = { retries: 3, baseDelayMs: 5, maxDelayMs: 2000 };

/** Rejects with the ApAgentError `work` fails with. */
async function failure(work: Promise<unknown>): Promise<ApAgentError> {
  try {
    await work;
  } catch (err) {
    assert.ok(err instanceof ApAgentError, `expected an ApAgentError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to fail');
}

describe('callApAgent against the test deployment', () => {
  let server: TestServer;
  let fetch: typeof globalThis.fetch;
  const target = (path: string, protocol?: 'mcp' | 'a2a') => ({
    agentUrl: `${server.url}${path}`,
    credential: publicTestCredential,
    fetch,
    ...(protocol ? { protocol } : {}),
  });

  before(async () => {
    server = await startTestServer(engines[0]!, { env: { AGENTS: 'true' } });
    // The SSRF-safe client, allowed this loopback server only: what a deployment's allow list does.
    fetch = fetchThrough(new SafeFetch({ allow: parseAllowList(new URL(server.url).host) }));
  });
  after(() => server.close());

  for (const protocol of ['mcp', 'a2a'] as const) {
    it(`answers get_products over ${protocol} with the parsed payload, valid against its schema`, async () => {
      const payload = await callApAgent({
        ...target('/sales/mcp', protocol),
        task: 'get_products',
        arguments: { brief: 'recipes' },
      });
      assert.ok(Array.isArray(payload['products']) && payload['products'].length > 0);
      const { context: _context, ...document } = payload;
      assert.deepEqual(validateSchema('/schemas/3.0.6/media-buy/get-products-response.json', document).errors, []);
    });

    it(`turns an agent's error envelope over ${protocol} into one typed error`, async () => {
      const error = await failure(
        callApAgent({
          ...target('/sales/mcp', protocol),
          task: 'create_media_buy',
          arguments: {
            account: { account_id: 'nobody' },
            brand: { domain: 'acme.example' },
            start_time: 'asap',
            end_time: '2020-01-01T00:00:00Z',
            packages: [],
          },
          retry: fast,
        }),
      );
      assert.equal(error.kind, 'agent');
      assert.match(error.code, /^[A-Z_]+$/);
      assert.equal(error.retryable, false);
      assert.equal(typeof error.message, 'string');
      assert.equal(error.details?.code, error.code);
    });
  }

  it('detects the protocol: MCP for an /mcp URL, A2A for a card or its base', async () => {
    const mcp = await listTools(target('/sales/mcp'));
    assert.ok(mcp.some((t) => t.name === 'create_media_buy' && t.inputSchema !== undefined));
    const a2a = await listTools(target('/sales'));
    assert.ok(a2a.some((t) => t.name === 'create_media_buy'));
    assert.ok(a2a.every((t) => t.inputSchema === undefined));
  });

  it('reads capabilities, valid against the published schema', async () => {
    const capabilities = await getCapabilities(target('/signals/mcp'));
    const { context: _context, ...document } = capabilities;
    assert.deepEqual(validateSchema('/schemas/3.0.6/protocol/get-ap-capabilities-response.json', document).errors, []);
  });

  it('refuses a wrong credential as UNAUTHORIZED, without trying the other protocol', async () => {
    const error = await failure(
      callApAgent({
        ...target('/sales/mcp'),
        credential: 'not-a-credential-at-all',
        task: 'get_products',
        arguments: {},
      }),
    );
    assert.equal(error.code, 'UNAUTHORIZED');
    assert.equal(error.status, 401);
  });

  it('says NOT_AN_AGENT for a URL that speaks neither protocol', async () => {
    const error = await failure(
      callApAgent({ ...target('/nothing-here'), task: 'get_products', retry: { retries: 0 } }),
    );
    assert.equal(error.code, 'NOT_AN_AGENT');
    assert.equal(error.kind, 'transport');
  });

  it('refuses an agent on a private address through its default, public-only client', async () => {
    const error = await failure(
      callApAgent({
        agentUrl: `${server.url}/sales/mcp`,
        credential: publicTestCredential,
        task: 'get_products',
        retry: { retries: 0 },
      }),
    );
    assert.equal(error.kind, 'transport');
    assert.equal(error.retryable, false);
  });
});

describe('callApAgent: retries, long-running tasks, webhooks, timeouts and cancellation', () => {
  let server: TestServer;
  let fetch: typeof globalThis.fetch;
  const receiver = new TestReceiver();
  const inbox = new WebhookInbox();
  const { tenant, executions, held } = testTenant();
  const target = (protocol: 'mcp' | 'a2a' = 'mcp') => ({
    agentUrl: `${server.url}/test/mcp`,
    credential: adminKey,
    fetch,
    protocol,
  });

  before(async () => {
    await receiver.listen();
    receiver.onEvent = inbox.deliver;
    server = await startTestServer(engines[0]!, {
      deps: { tenants: [tenant], fetcher: new SafeFetch({ allow: parseAllowList(new URL(receiver.url).host) }) },
    });
    receiver.trust(server.url);
    fetch = fetchThrough(new SafeFetch({ allow: parseAllowList(new URL(server.url).host) }));
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  for (const protocol of ['mcp', 'a2a'] as const) {
    it(`retries a transient failure over ${protocol} with the same idempotency key, so the task runs once more, not twice`, async () => {
      const name = randomUUID();
      const before = executions.flaky_create;
      const retried: string[] = [];
      // A2A skills carry no input schema: for a task the published schemas do not name, the caller gives the key.
      const key = protocol === 'a2a' ? { idempotency_key: randomUUID() } : {};
      const payload = await callApAgent({
        ...target(protocol),
        task: 'flaky_create',
        arguments: { name, ...key },
        retry: fast,
        onRetry: (error) => retried.push(error.code),
      });
      assert.equal(payload['created'], name);
      assert.deepEqual(retried, ['INTERNAL_ERROR']);
      assert.equal(executions.flaky_create, before + 2);
    });

    it(`awaits a long-running task over ${protocol} by polling, reporting its progress`, async () => {
      const name = randomUUID();
      const hold = held(name);
      const updates: TaskUpdate[] = [];
      const key = protocol === 'a2a' ? { idempotency_key: randomUUID() } : {};
      const call = callApAgent({
        ...target(protocol),
        task: 'build_thing',
        arguments: { name, ...key },
        pollIntervalMs: 20,
        onProgress: (u) => updates.push(u),
      });
      (await hold)();
      const result = await call;
      assert.equal(result['name'], name);
      assert.ok(updates.length >= 2, JSON.stringify(updates));
      assert.ok(['submitted', 'working'].includes(updates[0]!.status));
      assert.equal(updates.at(-1)!.status, 'completed');
      assert.ok(updates.every((u) => u.task_id === updates[0]!.task_id));
    });
  }

  it('awaits a long-running task by its signed webhook', async () => {
    const name = randomUUID();
    const hold = held(name);
    const updates: TaskUpdate[] = [];
    // Polls are 30 s apart when webhooks are awaited: within this call's 20 s, only the webhook can answer.
    const call = callApAgent({
      ...target(),
      task: 'build_thing',
      arguments: { name },
      timeoutMs: 20_000,
      webhook: { url: `${receiver.url}/hooks/client/${name}`, inbox },
      onProgress: (u) => updates.push(u),
    });
    (await hold)();
    const result = await call;
    assert.equal(result['name'], name);
    assert.equal(updates.at(-1)!.status, 'completed');
    assert.ok(receiver.events.some((e) => e.task_id === updates[0]!.task_id && e.status === 'completed'));
  });

  it('gives up at its timeout with TIMEOUT naming the task, which goes on at the agent', async () => {
    const name = randomUUID();
    const hold = held(name);
    const error = await failure(
      callApAgent({ ...target(), task: 'build_thing', arguments: { name }, pollIntervalMs: 20, timeoutMs: 400 }),
    );
    assert.equal(error.kind, 'timeout');
    assert.equal(error.code, 'TIMEOUT');
    const taskId = error.details?.['task_id'];
    assert.equal(typeof taskId, 'string');
    (await hold)();
    const ended = await callApAgent({ ...target(), task: 'get_task', arguments: { task_id: taskId } });
    assert.ok(['working', 'completed'].includes(String(ended['status'])));
  });

  it('cancels: the wait ends with CANCELED and the task is canceled at the agent', async () => {
    const name = randomUUID();
    const hold = held(name);
    const controller = new AbortController();
    let started!: (taskId: string) => void;
    const taskStarted = new Promise<string>((resolve) => (started = resolve));
    const call = callApAgent({
      ...target(),
      task: 'build_thing',
      arguments: { name },
      pollIntervalMs: 20,
      signal: controller.signal,
      onProgress: (u) => started(u.task_id),
    });
    const release = await hold;
    const taskId = await taskStarted;
    controller.abort();
    const error = await failure(call);
    release();
    assert.equal(error.kind, 'canceled');
    assert.equal(error.code, 'CANCELED');
    const state = await callApAgent({ ...target(), task: 'get_task', arguments: { task_id: taskId } });
    assert.equal(state['status'], 'canceled');
  });

  it('sends a mutating task a UUID v4 idempotency key, and none to a read', async () => {
    const first = await callApAgent({
      ...target(),
      task: 'create_widget',
      arguments: { account: { account_id: 'a1' }, name: 'w' },
    });
    assert.equal(first['replayed'], false);
    assert.deepEqual(await callApAgent({ ...target(), task: 'echo', arguments: { message: 'hi' } }), {
      status: 'completed',
      message: 'hi',
    });
    const key = randomUUID();
    await callApAgent({
      ...target(),
      task: 'create_widget',
      arguments: { account: { account_id: 'a1' }, name: 'w', idempotency_key: key },
    });
    const again = await callApAgent({
      ...target(),
      task: 'create_widget',
      arguments: { account: { account_id: 'a1' }, name: 'w', idempotency_key: key },
    });
    assert.equal(again['replayed'], true);
  });
});
