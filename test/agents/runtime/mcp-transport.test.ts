import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CallToolResultSchema,
  ErrorCode,
  InitializeResultSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCResultResponseSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { testTenant } from '../../support/agents.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

const echo = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'bare' } } };

/** An answer the official SDK's own schemas accept as a JSON-RPC result, returning the result. */
function resultOf(message: unknown): Json {
  const parsed = JSONRPCResultResponseSchema.safeParse(message);
  assert.ok(parsed.success, JSON.stringify(message));
  return parsed.data.result as Json;
}

/** A JSON-RPC error answer; `id: null` (the request's id unknown) is JSON-RPC's, which the SDK's own transport sends too. */
function errorOf(message: unknown): { code: number; message: string } {
  const { id, ...rest } = message as Json;
  const parsed = JSONRPCErrorResponseSchema.safeParse(id === null ? rest : message);
  assert.ok(parsed.success, JSON.stringify(message));
  return parsed.data.error;
}

eachEngine('MCP transport (stateless JSON-RPC)', (engine) => {
  let server: TestServer;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/test/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...asAdmin, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const rpc = async (body: unknown, headers: Record<string, string> = {}) => {
    const res = await post(body, headers);
    return { status: res.status, type: res.headers.get('content-type') ?? '', body: (await res.json()) as unknown };
  };

  before(async () => {
    server = await startTestServer(engine, { deps: { tenants: [testTenant().tenant] } });
  });
  after(() => server.close());

  describe('a bare tools/call, no initialize', () => {
    it('answers plain JSON with structuredContent when the client accepts only JSON', async () => {
      const answer = await rpc(echo);
      assert.equal(answer.status, 200);
      assert.match(answer.type, /^application\/json/);
      const result = CallToolResultSchema.parse(resultOf(answer.body));
      assert.deepEqual(result.structuredContent, { status: 'completed', message: 'bare' });
      assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), {
        status: 'completed',
        message: 'bare',
      });
    });

    it('answers plain JSON to a client that sends no Accept at all', async () => {
      const answer = await rpc(echo, { accept: '' });
      assert.equal(answer.status, 200);
      assert.deepEqual(resultOf(answer.body).structuredContent, { status: 'completed', message: 'bare' });
    });

    it('answers one server-sent event when the client accepts them', async () => {
      const res = await post(echo, { accept: 'application/json, text/event-stream' });
      assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
      const text = await res.text();
      assert.match(text, /^event: message\ndata: .*\n\n$/);
      assert.deepEqual(resultOf(JSON.parse(text.split('\n')[1]!.slice(6))).structuredContent, {
        status: 'completed',
        message: 'bare',
      });
    });
  });

  describe('lifecycle', () => {
    const initialize = (protocolVersion: string) => ({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });

    it('negotiates the protocol version: the client’s when supported, else the latest', async () => {
      const old = InitializeResultSchema.parse(resultOf((await rpc(initialize('2025-03-26'))).body));
      assert.equal(old.protocolVersion, '2025-03-26');
      assert.deepEqual(old.serverInfo, { name: 'ap-test', version: '1.0.0' });
      assert.ok(old.capabilities.tools);
      const future = InitializeResultSchema.parse(resultOf((await rpc(initialize('2099-01-01'))).body));
      assert.equal(future.protocolVersion, LATEST_PROTOCOL_VERSION);
    });

    it('answers notifications with 202 and no body, ping with an empty result', async () => {
      const res = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
      assert.equal(res.status, 202);
      assert.equal(await res.text(), '');
      assert.deepEqual(resultOf((await rpc({ jsonrpc: '2.0', id: 2, method: 'ping' })).body), {});
    });

    it('lists the tools, each input schema taking the envelope fields', async () => {
      const { tools } = ListToolsResultSchema.parse(
        resultOf((await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/list' })).body),
      );
      const echoTool = tools.find((t) => t.name === 'echo')!;
      assert.deepEqual(Object.keys(echoTool.inputSchema.properties ?? {}).sort(), [
        'ap_major_version',
        'context',
        'message',
      ]);
    });

    it('refuses an MCP-Protocol-Version header it does not speak', async () => {
      const answer = await rpc(echo, { 'mcp-protocol-version': '1999-01-01' });
      assert.equal(answer.status, 400);
      assert.match(errorOf(answer.body).message, /1999-01-01/);
      assert.equal((await rpc(echo, { 'mcp-protocol-version': '2025-06-18' })).status, 200);
    });
  });

  describe('JSON-RPC errors', () => {
    it('answers an unknown method with Method not found', async () => {
      const answer = await rpc({ jsonrpc: '2.0', id: 4, method: 'resources/list' });
      assert.equal(answer.status, 200);
      assert.equal(errorOf(answer.body).code, ErrorCode.MethodNotFound);
      assert.equal((answer.body as Json).id, 4);
    });

    it('answers params the SDK schema refuses with Invalid params', async () => {
      for (const params of [{}, { name: 42 }, { name: 'echo', arguments: 'text' }]) {
        const answer = await rpc({ jsonrpc: '2.0', id: 5, method: 'tools/call', params });
        assert.equal(errorOf(answer.body).code, ErrorCode.InvalidParams, JSON.stringify(params));
      }
      const init = await rpc({ jsonrpc: '2.0', id: 6, method: 'initialize', params: { protocolVersion: 7 } });
      assert.equal(errorOf(init.body).code, ErrorCode.InvalidParams);
    });

    it('decides calls off the common shape as the SDK’s schemas do', async () => {
      const args = { message: 'meta' };
      // `_meta` and `task` are the SDK's own params: the call is served.
      for (const params of [
        { name: 'echo', arguments: args, _meta: { progressToken: 'p1' } },
        { name: 'echo', arguments: args, task: { ttl: 1000 } },
      ]) {
        const answer = await rpc({ jsonrpc: '2.0', id: 'with-extras', method: 'tools/call', params });
        assert.equal(answer.status, 200, JSON.stringify(params));
        assert.equal(CallToolResultSchema.parse(resultOf(answer.body)).isError, undefined, JSON.stringify(params));
      }
      // An array of arguments is no record; an id beyond the safe integers and a key JSON-RPC lacks are no request.
      const array = await rpc({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: [] } });
      assert.equal(errorOf(array.body).code, ErrorCode.InvalidParams);
      for (const body of [
        { ...echo, id: 2 ** 53 },
        { ...echo, extra: true },
      ]) {
        const answer = await rpc(body);
        assert.equal(answer.status, 400, JSON.stringify(body));
        assert.equal((answer.body as { error: { code: number } }).error.code, ErrorCode.InvalidRequest);
      }
    });

    it('answers a body that is not JSON with a parse error, and a message that is not JSON-RPC with Invalid Request', async () => {
      const parse = await rpc('{"jsonrpc": "2.0", ');
      assert.equal(parse.status, 400);
      assert.deepEqual(parse.body, {
        jsonrpc: '2.0',
        id: null,
        error: { code: ErrorCode.ParseError, message: 'The request body is not valid JSON.' },
      });
      const text = await rpc(JSON.stringify(echo), { 'content-type': 'text/plain' });
      assert.equal(text.status, 415);
      assert.equal(errorOf(text.body).code, ErrorCode.InvalidRequest);
      for (const body of [{ hello: 'world' }, { jsonrpc: '1.0', id: 1, method: 'ping' }, 42]) {
        const answer = await rpc(body);
        assert.equal(answer.status, 400, JSON.stringify(body));
        assert.equal(errorOf(answer.body).code, ErrorCode.InvalidRequest);
      }
    });
  });

  describe('refusals before the protocol reads the request', () => {
    it('answers a body nested too deeply with a parse error in JSON-RPC, and a NUL character in arguments as the task’s refusal', async () => {
      const deep = await rpc(
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":${'['.repeat(70)}${']'.repeat(70)}}}}`,
      );
      assert.equal(deep.status, 400);
      assert.deepEqual(deep.body, {
        jsonrpc: '2.0',
        id: null,
        error: { code: ErrorCode.ParseError, message: 'The JSON body nests arrays and objects deeper than 64 levels.' },
      });
      // Text no store can hold reaches the task runner, which names the argument in MCP's own tool error.
      const nul = await rpc({ ...echo, params: { name: 'echo', arguments: { message: 'a\u0000b' } } });
      assert.equal(nul.status, 200);
      const result = resultOf(nul.body) as Json;
      assert.equal(result.isError, true);
      assert.deepEqual((result.structuredContent as Json).ap_error, {
        code: 'INVALID_REQUEST',
        message: 'Invalid argument message: must not contain the NUL character (U+0000).',
        field: 'message',
        recovery: 'correctable',
      });
    });

    it('keeps the registry’s 401 with its challenge for a request without a credential', async () => {
      const res = await fetch(`${server.url}/test/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(echo),
      });
      assert.equal(res.status, 401);
      assert.ok(res.headers.get('www-authenticate'));
      assert.equal(((await res.json()) as Json).error, 'unauthorized');
    });
  });

  describe('batches', () => {
    it('answers every request of a batch in order, notifications silently', async () => {
      const answer = await rpc([
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { ...echo, id: 'b' },
        { jsonrpc: '2.0', id: 'c', method: 'nope' },
      ]);
      assert.equal(answer.status, 200);
      const [ping, call, unknown] = answer.body as unknown[];
      assert.equal((answer.body as unknown[]).length, 3);
      assert.deepEqual(resultOf(ping), {});
      assert.equal((call as Json).id, 'b');
      assert.deepEqual(resultOf(call).structuredContent, { status: 'completed', message: 'bare' });
      assert.equal(errorOf(unknown).code, ErrorCode.MethodNotFound);
    });

    it('refuses an empty batch and initialize inside one', async () => {
      assert.equal((await rpc([])).status, 400);
      const init = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'x', version: '0' } },
      };
      assert.equal((await rpc([init, { jsonrpc: '2.0', id: 2, method: 'ping' }])).status, 400);
    });
  });
});
