import type { FastifyBaseLogger, FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AgentError } from '../../protocol/errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { advertisedInput } from './arguments.ts';
import type { TaskRunner } from './runner.ts';
import type { Tenant } from './task.ts';

/**
 * A tenant over MCP (Streamable HTTP, stateless): each POST gets a fresh SDK server bound to the
 * caller, so instances share nothing in memory and any of them can answer. Results carry the
 * payload twice, as the spec and MCP clients each expect: JSON text in `content[0]` and the
 * object in `structuredContent`. Errors are tool results with `isError` and `{code, message}`.
 */
export function mountMcp(app: FastifyInstance, tenant: Tenant, runner: TaskRunner, hostGuard: onRequestAsyncHookHandler): void {
  const path = `${tenant.path}/mcp`;
  app.post(
    path,
    {
      config: { auth: 'required' },
      onRequest: hostGuard,
      schema: {
        summary: `${tenant.name} agent over MCP`,
        description: 'MCP Streamable HTTP: JSON-RPC 2.0 `tools/list` and `tools/call`; answered as server-sent events when the client accepts text/event-stream.',
        tags: ['Agents'],
        security: [{ bearer: [] }],
      },
    },
    async (request, reply) => {
      const server = serverFor(tenant, runner, request.principal!, request.log);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (err) {
        request.log.error({ err }, 'MCP request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error.' } }));
        } else if (!reply.raw.writableEnded) reply.raw.end();
      }
    },
  );
  // Stateless: no server-initiated stream and no session to end.
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: path,
      config: { auth: 'required' },
      onRequest: hostGuard,
      schema: { hide: true },
      handler: async (_request, reply) =>
        reply.code(405).header('allow', 'POST').send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed: this endpoint is stateless; POST JSON-RPC requests.' } }),
    });
  }
}

function serverFor(tenant: Tenant, runner: TaskRunner, principal: Principal, log: FastifyBaseLogger): Server {
  const server = new Server({ name: `ap-${tenant.name}`, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: runner.tasks.map((task) => ({
      name: task.name,
      description: task.description,
      inputSchema: advertisedInput(task) as { type: 'object' },
      ...(task.output && !task.longRunning ? { outputSchema: task.output as { type: 'object' } } : {}),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    try {
      const payload = await runner.run(request.params.name, request.params.arguments, principal);
      return { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload };
    } catch (err) {
      if (!(err instanceof AgentError)) log.error({ err, task: request.params.name }, 'agent task failed');
      const error = err instanceof AgentError ? err : new AgentError('INTERNAL_ERROR');
      const body = { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}), ...(error.suggestion ? { suggestion: error.suggestion } : {}) };
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
    }
  });
  return server;
}
