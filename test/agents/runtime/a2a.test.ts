import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { a2aClient, callSkill, testTenant } from '../../support/agents.ts';
import { eachEngine } from '../../support/engines.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

eachEngine('agent runtime over A2A', (engine) => {
  let server: TestServer;
  const { tenant, executions } = testTenant();

  before(async () => {
    server = await startTestServer(engine, { deps: { tenants: [tenant] } });
  });
  after(() => server.close());

  it('publishes an agent card naming every task as a skill and the JSON-RPC endpoint', async () => {
    const res = await fetch(`${server.url}/test/.well-known/agent-card.json`);
    assert.equal(res.status, 200);
    const card = (await res.json()) as {
      skills: Array<{ id: string }>;
      supportedInterfaces: Array<{ url: string; protocolBinding: string }>;
    };
    assert.deepEqual(
      card.skills.map((s) => s.id),
      ['get_ap_capabilities', 'get_task', 'cancel_task', 'echo', 'create_widget', 'build_thing', 'flaky_create'],
    );
    assert.deepEqual(card.supportedInterfaces[0], {
      url: `${server.url}/test/a2a`,
      protocolBinding: 'JSONRPC',
      protocolVersion: '1.0',
    });
  });

  it('declares the bearer scheme the endpoint requires, as the card a client reads before calling', async () => {
    const card = (await (await fetch(`${server.url}/test/.well-known/agent-card.json`)).json()) as {
      securitySchemes: Record<string, { httpAuthSecurityScheme?: { scheme: string; description: string } }>;
      securityRequirements: Array<{ schemes: Record<string, unknown> }>;
    };
    const bearer = card.securitySchemes['bearer']?.httpAuthSecurityScheme;
    assert.equal(bearer?.scheme, 'Bearer');
    assert.match(bearer.description, /API key or access token/);
    assert.doesNotMatch(bearer.description, /public test credential/, 'this tenant takes no public credential');
    assert.deepEqual(Object.keys(card.securityRequirements[0]!.schemes), ['bearer']);
    const unauthenticated = await fetch(`${server.url}/test/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{}}',
    });
    assert.equal(unauthenticated.status, 401);
    assert.match(unauthenticated.headers.get('www-authenticate') ?? '', /^Bearer/);
  });

  it('runs the skill a data part names, through the official client', async () => {
    const client = await a2aClient(server.url);
    assert.deepEqual(await callSkill(client, 'echo', { message: 'over a2a' }), {
      status: 'completed',
      message: 'over a2a',
    });
    const capabilities = await callSkill(client, 'get_ap_capabilities', {});
    assert.deepEqual((capabilities['ap'] as { idempotency: unknown }).idempotency, {
      supported: true,
      replay_ttl_seconds: 86400,
    });
  });

  it('answers errors as {error: {code, message, field, recovery}}', async () => {
    const client = await a2aClient(server.url);
    assert.deepEqual((await callSkill(client, 'nope', {}))['error'], {
      code: 'INVALID_REQUEST',
      message:
        'Unknown task "nope"; this agent offers get_ap_capabilities, get_task, cancel_task, echo, create_widget, build_thing, flaky_create.',
      field: 'name',
      recovery: 'correctable',
    });
    assert.equal(((await callSkill(client, 'echo', { message: 7 }))['error'] as { field: string }).field, 'message');
  });

  it('shares idempotency with MCP: the same key replays across transports', async () => {
    const client = await a2aClient(server.url);
    const key = randomUUID();
    const before = executions.create_widget;
    const args = { idempotency_key: key, account: { account_id: 'a2a' }, name: 'w' };
    const first = await callSkill(client, 'create_widget', args);
    const again = await callSkill(client, 'create_widget', args);
    assert.equal(again['widget_id'], first['widget_id']);
    assert.equal(again['replayed'], true);
    assert.equal(executions.create_widget, before + 1);
  });

  it('answers a protocol version it does not speak with a JSON-RPC error', async () => {
    const res = await fetch(`${server.url}/test/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '9.9', ...asAdmin },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'SendMessage', params: {} }),
    });
    const body = (await res.json()) as { id: number; error: { code: number; message: string } };
    assert.equal(body.id, 7);
    assert.equal(typeof body.error.code, 'number');
  });

  it('answers a body it cannot take before the SDK reads it in JSON-RPC (not JSON, empty, nested too deeply, too wide), and a NUL character in a skill’s parameters as the task’s refusal', async () => {
    const post = (body: string) =>
      fetch(`${server.url}/test/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...asAdmin },
        body,
      });
    const send = (parameters: string) =>
      `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"data":{"skill":"echo","parameters":${parameters}}}]}}}`;
    for (const [body, code, message] of [
      ['{"jsonrpc":', -32700, 'The request body is not valid JSON.'],
      ['', -32700, 'The request body is empty; send a JSON document.'],
      [
        send(`{"message":${'['.repeat(70)}${']'.repeat(70)}}`),
        -32700,
        'The JSON body nests arrays and objects deeper than 64 levels.',
      ],
      [
        send(JSON.stringify({ macros: Object.fromEntries(Array.from({ length: 257 }, (_, i) => [`k${i}`, i])) })),
        -32700,
        'The JSON body has an object of more than 256 members.',
      ],
    ] as const) {
      const res = await post(body);
      assert.equal(res.status, 400, body.slice(0, 40));
      assert.deepEqual(await res.json(), { jsonrpc: '2.0', id: null, error: { code, message } }, body.slice(0, 40));
    }
    // Text no store can hold reaches the task runner, which names the argument in A2A's own answer.
    const nul = await fetch(`${server.url}/test/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...asAdmin },
      body: send('{"message":"a\\u0000b"}'),
    });
    assert.equal(nul.status, 200);
    const answer = JSON.stringify(await nul.json());
    assert.match(answer, /"code":"INVALID_REQUEST"/);
    assert.match(answer, /Invalid argument message: must not contain the NUL character/);
  });

  it('requires a credential', async () => {
    const res = await fetch(`${server.url}/test/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: {} }),
    });
    assert.equal(res.status, 401);
  });
});
