import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { ApAgentError, callApAgent, listTools } from '../../../src/client/index.ts';
import { isRecord } from '../../../src/protocol/json-values.ts';

/**
 * A minimal MCP agent written here with the official SDK, not the project's runtime: the client
 * must work with any agent that follows the protocol. `/mcp` serves the tools; `/creative` and
 * `/signals` answer every call with the creative tasks' and the signals tasks' HTTP envelopes.
 */
describe('callApAgent against an independent MCP server', () => {
  let base = '';
  let server: http.Server;
  const keysSeen: string[] = [];
  let rateLimitedOnce = false;

  const agent = () => {
    const mcp = new McpServer({ name: 'independent', version: '0.0.1' });
    mcp.registerTool('hello', { description: 'Greets.', inputSchema: { who: z.string() } }, async ({ who }) => ({
      content: [{ type: 'text', text: JSON.stringify({ greeting: `hello ${who}` }) }],
    }));
    mcp.registerTool(
      'book_thing',
      { description: 'Books (mutating).', inputSchema: { what: z.string(), idempotency_key: z.string() } },
      async ({ idempotency_key }) => {
        keysSeen.push(idempotency_key);
        if (!rateLimitedOnce) {
          rateLimitedOnce = true;
          return {
            isError: true,
            content: [
              { type: 'text', text: JSON.stringify({ code: 'RATE_LIMITED', message: 'slow down', retry_after: 1 }) },
            ],
          };
        }
        return { content: [{ type: 'text', text: JSON.stringify({ booked: true }) }] };
      },
    );
    return mcp;
  };

  before(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
        if (req.url === '/creative')
          return void res
            .writeHead(422, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { code: 'INVALID_FORMAT_ID', message: 'format_id must be an object' } }));
        if (req.url === '/signals')
          return void res.writeHead(400, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              errors: [
                {
                  code: 'SIGNAL_AGENT_SEGMENT_NOT_FOUND',
                  message: 'no such segment',
                  field: 'signal_agent_segment_id',
                  suggestion: 'call get_signals first',
                },
              ],
            }),
          );
        if (req.url === '/busy') return void res.writeHead(503, { 'retry-after': '1' }).end('down for maintenance');
        // Takes the request and never answers: only the caller's timeout or cancel ends the wait.
        if (req.url?.startsWith('/silent')) return;
        const id = isRecord(body) ? body['id'] : undefined;
        if (req.url === '/rpc-error')
          return void res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'database down' } }));
        // Stateless: a server and transport per request, as the SDK's own example does.
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        const mcp = agent();
        res.on('close', () => void transport.close().then(() => mcp.close()));
        void mcp.connect(transport).then(() => transport.handleRequest(req, res, body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const target = (path: string) => ({ agentUrl: `${base}${path}`, fetch: globalThis.fetch });

  it('lists its tools and answers a read with the parsed payload', async () => {
    assert.deepEqual(
      (await listTools(target('/mcp'))).map((t) => t.name),
      ['hello', 'book_thing'],
    );
    assert.deepEqual(await callApAgent({ ...target('/mcp'), task: 'hello', arguments: { who: 'world' } }), {
      greeting: 'hello world',
    });
  });

  it('retries RATE_LIMITED after its retry_after with the same idempotency key it generated', async () => {
    const waits: number[] = [];
    const payload = await callApAgent({
      ...target('/mcp'),
      task: 'book_thing',
      arguments: { what: 'a seat' },
      onRetry: (_error, waitMs) => waits.push(waitMs),
    });
    assert.deepEqual(payload, { booked: true });
    assert.deepEqual(waits, [1000]);
    assert.equal(keysSeen.length, 2);
    assert.equal(keysSeen[0], keysSeen[1]);
    assert.match(keysSeen[0]!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("turns the creative tasks' HTTP envelope into the typed error, with its status", async () => {
    const error = await callApAgent({
      ...target('/creative'),
      protocol: 'mcp',
      task: 'build_creative',
      retry: { retries: 0 },
    }).catch((e: unknown) => e);
    assert.ok(error instanceof ApAgentError);
    assert.deepEqual(
      [error.kind, error.code, error.status, error.retryable],
      ['agent', 'INVALID_FORMAT_ID', 422, false],
    );
  });

  it("turns the signals tasks' errors[] envelope into the typed error, with field and suggestion", async () => {
    const error = await callApAgent({
      ...target('/signals'),
      protocol: 'mcp',
      task: 'activate_signal',
      retry: { retries: 0 },
    }).catch((e: unknown) => e);
    assert.ok(error instanceof ApAgentError);
    assert.deepEqual(
      [error.code, error.field, error.suggestion, error.status],
      ['SIGNAL_AGENT_SEGMENT_NOT_FOUND', 'signal_agent_segment_id', 'call get_signals first', 400],
    );
  });

  it('ends a call to an agent that never answers at its timeout, connecting included, over either protocol', async () => {
    for (const protocol of ['mcp', 'a2a'] as const) {
      const started = performance.now();
      const error = await callApAgent({
        ...target('/silent'),
        protocol,
        task: 'hello',
        timeoutMs: 300,
        retry: { retries: 0 },
      }).catch((e: unknown) => e);
      assert.ok(error instanceof ApAgentError);
      assert.deepEqual([error.kind, error.code], ['timeout', 'TIMEOUT'], protocol);
      assert.ok(performance.now() - started < 5000, `${protocol} took ${performance.now() - started} ms`);
    }
  });

  it('reads a JSON-RPC internal error as a retryable transport failure, not as a refusal', async () => {
    const error = await callApAgent({
      ...target('/rpc-error'),
      protocol: 'mcp',
      task: 'hello',
      retry: { retries: 0 },
    }).catch((e: unknown) => e);
    assert.ok(error instanceof ApAgentError);
    assert.deepEqual([error.kind, error.retryable], ['transport', true]);
  });

  it('refuses an agent URL that is not http(s) as bad input, without a request', async () => {
    const error = await callApAgent({ agentUrl: 'notaurl', task: 'hello' }).catch((e: unknown) => e);
    assert.ok(error instanceof ApAgentError);
    assert.deepEqual([error.kind, error.code, error.retryable], ['input', 'INVALID_AGENT_URL', false]);
  });

  it('answers an A2A Task that has already ended with its result, or its error', async () => {
    const finished = (data: Record<string, unknown>) => ({
      protocol: 'a2a' as const,
      url: `${base}/card`,
      listTasks: async () => [],
      describeTasks: async () => [],
      call: async () => ({ ok: true as const, task: true as const, data }),
      getTask: async () => ({ ok: true as const, data }),
      cancelTask: async () => ({ ok: true as const, data }),
      close: async () => {},
    });
    const done = await callApAgent({
      agentUrl: `${base}/card`,
      task: 'get_signals',
      connection: finished({ task_id: 't1', status: 'completed', result: { signals: [] } }),
    });
    assert.deepEqual(done, { signals: [] });
    const failed = await callApAgent({
      agentUrl: `${base}/card`,
      task: 'activate_signal',
      connection: finished({
        task_id: 't2',
        status: 'failed',
        error: { code: 'ACTIVATION_FAILED', message: 'no seat' },
      }),
    }).catch((e: unknown) => e);
    assert.ok(failed instanceof ApAgentError);
    assert.deepEqual([failed.kind, failed.code], ['agent', 'ACTIVATION_FAILED']);
  });

  it('reads an HTTP 503 without an envelope as a retryable transport error with its Retry-After', async () => {
    const error = await callApAgent({
      ...target('/busy'),
      protocol: 'mcp',
      task: 'hello',
      retry: { retries: 0 },
    }).catch((e: unknown) => e);
    assert.ok(error instanceof ApAgentError);
    assert.deepEqual([error.kind, error.status, error.retryable, error.retryAfterSeconds], ['transport', 503, true, 1]);
  });
});

describe('the package', () => {
  it('exports the client as ap/client, typed', async () => {
    const exported = await import('ap/client');
    assert.equal(exported.callApAgent, callApAgent);
    assert.equal(exported.ApAgentError, ApAgentError);
  });
});
