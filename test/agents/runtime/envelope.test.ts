import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tenant } from '../../../src/agents/runtime/index.ts';
import { AgentError, type AgentErrorCode } from '../../../src/protocol/errors.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { a2aClient, callSkill, mcpClient } from '../../support/agents.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { adminKey, asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

const ERROR_SCHEMA = '/schemas/3.0.6/core/error.json';
const CAPABILITIES_SCHEMA = '/schemas/3.0.6/protocol/get-ap-capabilities-response.json';
const pushCredential = 'push-credential-that-must-never-come-back-0123456789';

/** Tasks that answer with whatever they were given, and fail with what the caller asks, including its words. */
const tenant: Tenant = {
  name: 'envelope',
  path: '/envelope',
  description: 'Envelope test tasks.',
  protocols: ['signals'],
  specialisms: ['signal-owned'],
  httpEnvelope: 'signals',
  tasks: [
    {
      name: 'reflect',
      description: 'Answers its arguments (mutating).',
      input: {
        type: 'object',
        properties: { push_notification_config: { type: 'object' }, note: { type: 'string' } },
        additionalProperties: false,
      },
      mutates: true,
      handler: async (args) => ({ got: args, context: { forged: true } }),
    },
    {
      name: 'typed',
      description: 'Answers within a closed output schema.',
      input: { type: 'object', properties: {} },
      output: {
        type: 'object',
        properties: { ok: { type: 'boolean' } },
        required: ['ok'],
        additionalProperties: false,
      },
      mutates: false,
      handler: async () => ({ ok: true }),
    },
    {
      name: 'fail',
      description: 'Fails with the code and the message it is given.',
      input: {
        type: 'object',
        properties: { code: { type: 'string' }, message: { type: 'string' } },
        required: ['code'],
        additionalProperties: false,
      },
      mutates: false,
      handler: async (args) => {
        const code = args['code'] as AgentErrorCode;
        if (code === ('CRASH' as AgentErrorCode)) throw new Error(`internal: ${String(args['message'])}`);
        throw new AgentError(code, args['message'] as string | undefined, {
          field: 'code',
          suggestion: 'Ask for another code.',
          retryAfter: 7.2,
          details: { asked: code },
        });
      },
    },
  ],
};

eachEngine('the protocol envelope every agent shares', (engine) => {
  let server: TestServer;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as Json;
  /** A raw MCP tools/call, to see every byte of the answer. */
  const raw = async (name: string, args: Record<string, unknown>) => {
    const res = await fetch(`${server.url}/envelope/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...asAdmin },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });
    assert.equal(res.status, 200);
    return res.text();
  };
  const http = (task: string, body: unknown) =>
    fetch(`${server.url}/envelope/tasks/${task}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...asAdmin },
      body: JSON.stringify(body),
    });

  before(async () => {
    server = await startTestServer(engine, { deps: { tenants: [tenant] } });
    client = await mcpClient(server.url, '/envelope');
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  describe('errors', () => {
    it('answers an MCP error as isError, the error object as text and {status: failed, ap_error, context} as structured content', async () => {
      const context = { trace_id: 't-1', nested: { n: [1, 2] } };
      const result = await call('fail', { code: 'RATE_LIMITED', message: 'Slow down.', context });
      assert.equal(result.isError, true);
      const error = JSON.parse(result.content[0].text as string) as Json;
      assert.deepEqual(error, {
        code: 'RATE_LIMITED',
        message: 'Slow down.',
        field: 'code',
        suggestion: 'Ask for another code.',
        recovery: 'transient',
        retry_after: 8,
        details: { asked: 'RATE_LIMITED' },
      });
      assert.deepEqual(validateSchema(ERROR_SCHEMA, error).errors, []);
      assert.deepEqual(result.structuredContent, { status: 'failed', ap_error: error, context });
    });

    it('gives an error the recovery of its code and a failure nothing of its internals', async () => {
      assert.equal(
        JSON.parse((await call('fail', { code: 'ACCOUNT_SUSPENDED' })).content[0].text).recovery,
        'terminal',
      );
      // A fault of the task itself, which the same request meets again: not worth a retry.
      const crash = await call('fail', { code: 'CRASH', message: 'stack and secrets' });
      assert.deepEqual(crash.structuredContent, {
        status: 'failed',
        ap_error: { code: 'INTERNAL_ERROR', message: 'The agent failed to complete the task.', recovery: 'terminal' },
      });
    });

    it('answers the same error object over MCP, A2A and plain HTTP, suggestion included', async () => {
      const args = { code: 'SIGNAL_NOT_FOUND', message: 'No signal s-1.', context: { c: 1 } };
      const mcp = JSON.parse((await call('fail', args)).content[0].text as string) as Json;
      const a2a = await callSkill(await a2aClient(server.url, '/envelope'), 'fail', args);
      const res = await http('fail', args);
      assert.equal(res.status, 404);
      const plain = (await res.json()) as Json;
      assert.equal(mcp.suggestion, 'Ask for another code.');
      assert.deepEqual(a2a, { status: 'failed', error: mcp, context: { c: 1 } });
      assert.deepEqual(plain, { status: 'failed', errors: [mcp], context: { c: 1 } });
    });

    it('refuses an ap_major_version it does not speak with VERSION_UNSUPPORTED naming the supported ones', async () => {
      for (const task of ['get_ap_capabilities', 'fail']) {
        const result = await call(task, { code: 'CONFLICT', ap_major_version: 2, context: { v: 2 } });
        assert.equal(result.isError, true);
        const { ap_error: error, context } = result.structuredContent as Json;
        assert.equal(error.code, 'VERSION_UNSUPPORTED', task);
        assert.deepEqual(error.details, { supported_versions: [3] });
        assert.equal(error.recovery, 'correctable');
        assert.deepEqual(context, { v: 2 });
      }
      assert.equal(
        ((await call('get_ap_capabilities', { ap_major_version: 3 })).structuredContent as Json).ap.major_versions[0],
        3,
      );
    });
  });

  describe('status', () => {
    const ENVELOPE = '/schemas/3.0.6/core/protocol-envelope.json';
    /** The envelope a flat answer carries, as core/protocol-envelope.json describes it apart from its payload. */
    const envelopeOf = ({ status, task_id, context_id, replayed, ...payload }: Json) => ({
      status,
      payload,
      ...(task_id ? { task_id } : {}),
      ...(context_id ? { context_id } : {}),
      ...(replayed === undefined ? {} : { replayed }),
    });

    it('carries the task status beside the payload on every answer, over every transport', async () => {
      const mcp = await call('get_ap_capabilities', {});
      const text = JSON.parse(mcp.content[0].text as string) as Json;
      assert.equal((mcp.structuredContent as Json).status, 'completed');
      assert.equal(text.status, 'completed');
      assert.deepEqual(validateSchema(ENVELOPE, envelopeOf(text)).errors, []);
      assert.deepEqual(validateSchema(CAPABILITIES_SCHEMA, text).errors, []);
      const a2a = await callSkill(await a2aClient(server.url, '/envelope'), 'get_ap_capabilities', {});
      assert.equal(a2a['status'], 'completed');
      const plain = (await (await http('get_ap_capabilities', {})).json()) as Json;
      assert.equal(plain.status, 'completed');
      const failure = await call('fail', { code: 'CONFLICT' });
      assert.deepEqual(validateSchema(ENVELOPE, envelopeOf(failure.structuredContent as Json)).errors, []);
      assert.equal((failure.structuredContent as Json).status, 'failed');
    });

    it('marks a replay beside the status, and the first answer as not replayed', async () => {
      const key = randomUUID();
      const first = (await call('reflect', { idempotency_key: key, note: 'n' })).structuredContent as Json;
      const again = (await call('reflect', { idempotency_key: key, note: 'n' })).structuredContent as Json;
      assert.equal(first.status, 'completed');
      assert.equal(first.replayed, false);
      assert.equal(again.status, 'completed');
      assert.equal(again.replayed, true);
      assert.deepEqual(validateSchema(ENVELOPE, envelopeOf(again)).errors, []);
    });

    it('never emits the legacy task_status or response_status', async () => {
      const answer = (await call('get_ap_capabilities', {})).structuredContent as Json;
      assert.equal('task_status' in answer || 'response_status' in answer, false);
    });
  });

  describe('context', () => {
    it('echoes the request context unchanged on success, over every transport, in place of any the task answered', async () => {
      const context = { trace_id: randomUUID(), ui: { tab: 2 }, list: ['a', null] };
      const mcp = await call('get_ap_capabilities', { context });
      assert.deepEqual((mcp.structuredContent as Json).context, context);
      assert.deepEqual(JSON.parse(mcp.content[0].text as string).context, context);
      const reflected = await call('reflect', { idempotency_key: randomUUID(), context });
      assert.deepEqual((reflected.structuredContent as Json).context, context);
      const a2a = await callSkill(await a2aClient(server.url, '/envelope'), 'get_ap_capabilities', { context });
      assert.deepEqual(a2a['context'], context);
      const plain = (await (await http('get_ap_capabilities', { context })).json()) as Json;
      assert.deepEqual(plain.context, context);
    });

    it('advertises output schemas that take the echoed context, so the SDK client accepts the answer', async () => {
      const { tools } = await client.listTools();
      assert.ok((tools.find((t) => t.name === 'typed')!.outputSchema!.properties as Json)['context']);
      // The SDK client checks structured content against the advertised output schema, and throws when it does not match.
      const typed = await call('typed', { context: { trace: 'o' } });
      assert.deepEqual(typed.structuredContent, { status: 'completed', ok: true, context: { trace: 'o' } });
    });

    it('answers without a context when the request had none, even if the task returned one', async () => {
      const reflected = await call('reflect', { idempotency_key: randomUUID() });
      assert.equal('context' in (reflected.structuredContent as Json), false);
    });
  });

  describe('credentials', () => {
    const push = {
      url: 'https://buyer.example/hook',
      authentication: { schemes: ['Bearer'], credentials: pushCredential },
    };

    it('never echoes push-notification credentials, neither first nor on a replay', async () => {
      const args = { idempotency_key: randomUUID(), push_notification_config: push, note: `copy: ${pushCredential}` };
      for (const attempt of ['first', 'replay']) {
        const text = await raw('reflect', args);
        assert.doesNotMatch(text, new RegExp(pushCredential), attempt);
        const answer = JSON.parse(text) as Json;
        const got = answer.result.structuredContent.got as Json;
        assert.equal(got.push_notification_config.url, push.url, attempt);
        assert.equal(got.push_notification_config.authentication.credentials, '[redacted]', attempt);
        assert.equal(got.note, 'copy: [redacted]', attempt);
      }
      const res = await http('reflect', { ...args, idempotency_key: randomUUID() });
      assert.doesNotMatch(await res.text(), new RegExp(pushCredential));
    });

    it('never echoes the bearer token, even in an error message', async () => {
      const text = await raw('fail', { code: 'INVALID_REQUEST', message: `Your token ${adminKey} is odd.` });
      assert.doesNotMatch(text, new RegExp(adminKey));
      assert.match(JSON.parse(text).result.content[0].text, /Your token \[redacted\] is odd\./);
      const plain = await (await http('fail', { code: 'CONFLICT', message: adminKey })).text();
      assert.doesNotMatch(plain, new RegExp(adminKey));
      const a2a = await callSkill(await a2aClient(server.url, '/envelope'), 'fail', {
        code: 'INVALID_REQUEST',
        message: `Your token ${adminKey} is odd.`,
      });
      assert.doesNotMatch(JSON.stringify(a2a), new RegExp(adminKey));
    });
  });

  describe('capabilities', () => {
    it('validate against the published response schema, with versions, idempotency, protocols, specialisms and webhook signing', async () => {
      const capabilities = (await call('get_ap_capabilities', {})).structuredContent as Json;
      assert.deepEqual(validateSchema(CAPABILITIES_SCHEMA, capabilities).errors, []);
      assert.deepEqual(capabilities.ap, {
        major_versions: [3],
        idempotency: { supported: true, replay_ttl_seconds: 86400 },
      });
      assert.deepEqual(capabilities.supported_protocols, ['signals']);
      assert.deepEqual(capabilities.specialisms, ['signal-owned']);
      assert.deepEqual(capabilities.webhook_signing, {
        supported: true,
        profile: 'ap/webhook-signing/v1',
        algorithms: ['ed25519'],
      });
      const withContext = (await call('get_ap_capabilities', { context: { x: 1 } })).structuredContent as Json;
      assert.deepEqual(validateSchema(CAPABILITIES_SCHEMA, withContext).errors, []);
    });
  });
});
