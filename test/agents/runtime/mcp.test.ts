import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { v7 as uuidv7 } from 'uuid';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { mcpClient, testTenant } from '../../support/agents.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

/** A tool result as the spec reads it: the JSON text of content[0], checked against structuredContent. */
function payloadOf(result: Json): Json {
  const text = result.content[0].text as string;
  const parsed = JSON.parse(text) as Json;
  if (!result.isError) assert.deepEqual(result.structuredContent, parsed);
  return parsed;
}

eachEngine('agent runtime over MCP', (engine) => {
  let server: TestServer;
  let client: Client;
  const clock = new ManualClock();
  const { tenant, executions } = testTenant();
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as Json;

  before(async () => {
    server = await startTestServer(engine, { deps: { tenants: [tenant], clock } });
    client = await mcpClient(server.url);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  describe('tasks', () => {
    it('lists every task with its input schema, mutating ones requiring an idempotency_key', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        ['get_ap_capabilities', 'get_task', 'cancel_task', 'echo', 'create_widget', 'build_thing', 'flaky_create'],
      );
      const echo = tools.find((t) => t.name === 'echo')!;
      assert.deepEqual(echo.inputSchema.required, ['message']);
      const create = tools.find((t) => t.name === 'create_widget')!;
      assert.deepEqual(create.inputSchema.required, ['account', 'name', 'idempotency_key']);
    });

    it('answers with the payload as JSON text in content[0] and as structuredContent', async () => {
      const result = await call('echo', { message: 'hello' });
      assert.equal(result.isError, undefined);
      assert.deepEqual(payloadOf(result), { status: 'completed', message: 'hello' });
    });

    it('reports its capabilities, valid against the published schema', async () => {
      const capabilities = payloadOf(await call('get_ap_capabilities', {}));
      const { errors } = validateSchema('/schemas/3.0.6/protocol/get-ap-capabilities-response.json', capabilities);
      assert.deepEqual(errors, []);
      assert.deepEqual(capabilities.ap.idempotency, { supported: true, replay_ttl_seconds: 86400 });
      assert.deepEqual(capabilities.webhook_signing, {
        supported: true,
        profile: 'ap/webhook-signing/v1',
        algorithms: ['ed25519'],
      });
      assert.deepEqual(capabilities.supported_protocols, ['media_buy']);
      assert.ok(capabilities.tasks.includes('create_widget'));
    });
  });

  describe('error envelopes', () => {
    it('answers an unknown tool with isError and INVALID_REQUEST', async () => {
      const result = await call('no_such_tool', {});
      assert.equal(result.isError, true);
      const error = payloadOf(result);
      assert.equal(error.code, 'INVALID_REQUEST');
      assert.match(error.message, /no_such_tool/);
    });

    it('answers bad arguments with INVALID_REQUEST naming the field', async () => {
      for (const [args, field] of [
        [{}, 'message'],
        [{ message: 42 }, 'message'],
        [{ message: 'x', extra: true }, 'extra'],
      ] as const) {
        const error = payloadOf(await call('echo', args));
        assert.equal(error.code, 'INVALID_REQUEST');
        assert.equal(error.field, field, JSON.stringify(args));
      }
      const nested = payloadOf(await call('create_widget', { idempotency_key: randomUUID(), account: {}, name: 'w' }));
      assert.equal(nested.field, 'account.account_id');
    });

    it('answers a failing task with INTERNAL_ERROR and no internals', async () => {
      const error = payloadOf(await call('flaky_create', { idempotency_key: randomUUID(), name: randomUUID() }));
      assert.deepEqual(error, {
        code: 'INTERNAL_ERROR',
        message: 'The agent failed to complete the task.',
        recovery: 'transient',
      });
    });
  });

  describe('transport', () => {
    const rpc = (
      headers: Record<string, string>,
      body: unknown = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: 'raw' } },
      },
    ) =>
      fetch(`${server.url}/test/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...asAdmin,
          ...headers,
        },
        body: JSON.stringify(body),
      });

    it('answers a plain JSON-RPC tools/call as server-sent events when the client accepts them', async () => {
      const res = await rpc({});
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
      const data = (await res.text()).split('\n').find((line) => line.startsWith('data: '))!;
      const message = JSON.parse(data.slice(6)) as Json;
      assert.equal(message.id, 1);
      assert.deepEqual(JSON.parse(message.result.content[0].text), { status: 'completed', message: 'raw' });
    });

    it('requires a bearer credential', async () => {
      const res = await rpc({ authorization: '' });
      assert.equal(res.status, 401);
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
    });

    it('refuses a foreign Host or a browser Origin it was not told to allow', async () => {
      // fetch() will not send a Host of our choosing; a raw request will.
      const status = (headers: Record<string, string>) =>
        new Promise<number>((resolve, reject) => {
          const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
          const req = http.request(
            `${server.url}/test/mcp`,
            {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
                ...asAdmin,
                ...headers,
              },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.end(body);
        });
      assert.equal(await status({}), 200);
      assert.equal(await status({ host: 'attacker.example' }), 403);
      assert.equal(await status({ origin: 'https://attacker.example' }), 403);
    });
  });

  describe('idempotency', () => {
    const create = (key: string, name = 'widget', extra: Record<string, unknown> = {}) =>
      call('create_widget', { idempotency_key: key, account: { account_id: 'acc-1' }, name, ...extra });

    it("requires a key of the published pattern on mutating tasks, as buyers' tools send them", async () => {
      for (const args of [
        {},
        { idempotency_key: 'abc' },
        { idempotency_key: 'fifteen-chars-x' },
        { idempotency_key: 'has spaces in it, see' },
        { idempotency_key: 'k'.repeat(256) },
      ]) {
        const error = payloadOf(await call('create_widget', { account: { account_id: 'a' }, name: 'w', ...args }));
        assert.equal(error.code, 'INVALID_REQUEST');
        assert.equal(error.field, 'idempotency_key');
      }
      const readable = `invalid-transitions-setup-v1.${randomUUID().slice(0, 8)}`;
      for (const key of [readable, uuidv7(), 'k'.repeat(255), 'A_b.c:d-0123456789']) {
        const answer = payloadOf(await create(key, `widget ${key.slice(0, 40)}`));
        assert.equal(typeof answer.widget_id, 'string', JSON.stringify(answer));
      }
      const input = (await client.listTools()).tools.find((t) => t.name === 'create_widget')!.inputSchema as Json;
      assert.equal(input.properties.idempotency_key.pattern, '^[A-Za-z0-9_.:-]{16,255}$');
    });

    it('reads a UUID in either case as one key, and any other key exactly', async () => {
      const uuid = randomUUID();
      const first = payloadOf(await create(uuid));
      assert.equal(payloadOf(await create(uuid.toUpperCase())).widget_id, first.widget_id);
      const readable = `Buyer-Setup-Key-${randomUUID().slice(0, 8)}`;
      const mixed = payloadOf(await create(readable));
      const lower = payloadOf(await create(readable.toLowerCase()));
      assert.equal(lower.replayed, false);
      assert.notEqual(lower.widget_id, mixed.widget_id);
    });

    it('replays the first response for the same key and payload, without running again', async () => {
      const key = randomUUID();
      const before = executions.create_widget;
      const first = payloadOf(await create(key));
      const again = payloadOf(await create(key));
      assert.equal(first.replayed, false);
      assert.equal(again.replayed, true);
      assert.equal(again.widget_id, first.widget_id);
      assert.equal(executions.create_widget, before + 1);
    });

    it('leaves push-notification credentials out of the payload compared, but not the rest of the push config', async () => {
      const key = randomUUID();
      const push = (credentials: string, url = 'https://buyer.example/hook') => ({
        push_notification_config: { url, authentication: { schemes: ['Bearer'], credentials } },
      });
      const first = payloadOf(await create(key, 'widget', push('secret-1')));
      const rotated = payloadOf(await create(key, 'widget', push('secret-2')));
      assert.equal(rotated.replayed, true);
      assert.equal(rotated.widget_id, first.widget_id);
      assert.equal(
        payloadOf(await create(key, 'widget', push('secret-2', 'https://buyer.example/other'))).code,
        'IDEMPOTENCY_CONFLICT',
      );
    });

    it('answers IDEMPOTENCY_CONFLICT for the same key with a different payload', async () => {
      const key = randomUUID();
      payloadOf(await create(key, 'one'));
      const error = payloadOf(await create(key, 'two'));
      assert.equal(error.code, 'IDEMPOTENCY_CONFLICT');
    });

    it('scopes keys to the account', async () => {
      const key = randomUUID();
      const one = payloadOf(await create(key));
      const other = payloadOf(
        await call('create_widget', { idempotency_key: key, account: { account_id: 'acc-2' }, name: 'widget' }),
      );
      assert.notEqual(other.widget_id, one.widget_id);
      assert.equal(other.replayed, false);
    });

    it('answers IDEMPOTENCY_EXPIRED once the replay window has passed', async () => {
      const key = randomUUID();
      payloadOf(await create(key));
      clock.advance(86_401_000);
      try {
        const error = payloadOf(await create(key));
        assert.equal(error.code, 'IDEMPOTENCY_EXPIRED');
      } finally {
        clock.advance(-86_401_000);
      }
    });

    it('does not replay a failure: the same key runs again and its success is replayed', async () => {
      const key = randomUUID();
      const name = randomUUID();
      const before = executions.flaky_create;
      assert.equal(payloadOf(await call('flaky_create', { idempotency_key: key, name })).code, 'INTERNAL_ERROR');
      const second = payloadOf(await call('flaky_create', { idempotency_key: key, name }));
      assert.deepEqual(second, { status: 'completed', created: name, replayed: false });
      assert.equal(payloadOf(await call('flaky_create', { idempotency_key: key, name })).replayed, true);
      assert.equal(executions.flaky_create, before + 2);
    });

    it('runs 200 concurrent calls over 20 keys exactly 20 times; a duplicate gets the first result, or SERVICE_UNAVAILABLE while it runs', async () => {
      const keys = Array.from({ length: 20 }, () => randomUUID());
      const before = executions.create_widget;
      const clients = await Promise.all(Array.from({ length: 10 }, () => mcpClient(server.url)));
      try {
        const results = await Promise.all(
          Array.from({ length: 200 }, async (_, i) => {
            const key = keys[i % 20]!;
            const result = (await clients[i % 10]!.callTool({
              name: 'create_widget',
              arguments: { idempotency_key: key, account: { account_id: 'acc-c' }, name: 'c', delay_ms: 100 },
            })) as Json;
            return { key, payload: payloadOf(result) };
          }),
        );
        assert.equal(executions.create_widget, before + 20);
        for (const key of keys) {
          const answers = results.filter((r) => r.key === key).map((r) => r.payload);
          const first = answers.find((a) => a.replayed === false)!;
          assert.equal(answers.filter((a) => a.replayed === false).length, 1);
          assert.ok(
            answers.every((a) => a.widget_id === first.widget_id || a.code === 'SERVICE_UNAVAILABLE'),
            `key ${key}: ${JSON.stringify(answers.map((a) => a.code ?? a.widget_id))}`,
          );
          // Retried, a duplicate that found the first in flight gets its result.
          const retried = payloadOf(await create(key, 'c', { account: { account_id: 'acc-c' }, delay_ms: 100 }));
          assert.equal(retried.widget_id, first.widget_id);
          assert.equal(retried.replayed, true);
        }
        assert.equal(executions.create_widget, before + 20);
      } finally {
        await Promise.all(clients.map((c) => c.close()));
      }
    });
  });
});
