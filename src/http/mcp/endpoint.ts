import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
} from 'fastify';
import { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { jsonRpcRefusal } from '../json-rpc-refusal.ts';
import { rpcError, type McpReply, type RpcAnswer } from './dispatcher.ts';
import { answerJson } from './serialized.ts';
import '../route-config.ts';

export interface McpEndpoint {
  /** Where it is served, e.g. `/sales/mcp`. */
  path: string;
  summary: string;
  tags: string[];
  /** Route config besides `auth: 'required'` (the protected resource its challenge names). */
  config?: FastifyContextConfig;
  /** Host and Origin checks (http/mcp/host-check.ts), before anything else. */
  hostGuard: onRequestAsyncHookHandler;
  /** Answers one POST's body for an authenticated request. */
  dispatch(body: unknown, request: FastifyRequest): Promise<McpReply>;
}

/**
 * An MCP endpoint over Streamable HTTP, stateless: each POST is answered by a dispatcher
 * (mcp/dispatcher.ts), so instances share nothing in memory and any of them can answer. The
 * answer is server-sent events when the client accepts them, plain JSON otherwise; GET and DELETE
 * answer 405 (no server-initiated stream, no session). A credential is always required: a refused
 * one keeps the registry's 401 body and its challenge, which MCP clients follow to OAuth.
 */
export function serveMcp(app: FastifyInstance, endpoint: McpEndpoint): void {
  // Tool arguments are checked for NUL and lone surrogates by whoever answers the tool, in MCP's own terms.
  const config = { ...endpoint.config, auth: 'required' as const, checksOwnText: true as const };
  app.post(
    endpoint.path,
    {
      config,
      onRequest: endpoint.hostGuard,
      schema: {
        summary: endpoint.summary,
        description:
          'MCP Streamable HTTP, stateless: JSON-RPC 2.0 `initialize`, `ping`, `tools/list` and `tools/call` (no `initialize` needed first); answered as server-sent events when the client accepts text/event-stream, else as JSON.',
        tags: endpoint.tags,
        response: {
          200: {
            description:
              'The JSON-RPC answers: one response (an array for a batch) as JSON, or one server-sent event (`event: message`) per answer.',
            content: {
              'application/json': {
                schema: {
                  oneOf: [
                    { type: 'object', additionalProperties: true },
                    { type: 'array', items: { type: 'object', additionalProperties: true } },
                  ],
                  examples: [
                    {
                      jsonrpc: '2.0',
                      id: 1,
                      result: {
                        content: [{ type: 'text', text: '{"status":"authorized"}' }],
                        structuredContent: { status: 'authorized' },
                      },
                    },
                  ],
                },
              },
              'text/event-stream': {
                schema: {
                  type: 'string',
                  examples: ['event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"tools":[]}}\n\n'],
                },
              },
            },
          },
          202: { description: 'The POST held only notifications or responses: nothing to answer.', type: 'null' },
        },
      },
      // What is refused before the protocol reads the request answers in JSON-RPC; a refused credential stays the registry's 401.
      errorHandler: jsonRpcRefusal,
    },
    async (request, reply) => {
      const version = request.headers['mcp-protocol-version'];
      const sse = acceptsEventStream(request.headers.accept);
      if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
        const message = `Bad Request: unsupported protocol version ${version} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}).`;
        return send(reply, 400, false, [rpcError(null, ErrorCode.ConnectionClosed, message)], false);
      }
      const answer = await endpoint.dispatch(request.body, request);
      if (answer.answers.length === 0) return nothing(reply, answer.status);
      return send(reply, answer.status, sse && answer.status === 200, answer.answers, answer.batch);
    },
  );
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: endpoint.path,
      config,
      onRequest: endpoint.hostGuard,
      schema: { hide: true },
      handler: async (_request, reply) =>
        reply
          .code(405)
          .header('allow', 'POST')
          .send({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32000, message: 'Method not allowed: this endpoint is stateless; POST JSON-RPC requests.' },
          }),
    });
  }
}

/** One SSE event per answer, as the SDK's transport writes them, or the JSON of the answer (an array for a batch). */
function send(reply: FastifyReply, status: number, sse: boolean, answers: RpcAnswer[], batch: boolean): FastifyReply {
  if (sse) {
    const events = answers.map((a) => `event: message\ndata: ${answerJson(a)}\n\n`).join('');
    return reply.code(status).header('cache-control', 'no-cache').type('text/event-stream').send(events);
  }
  return reply
    .code(status)
    .type('application/json')
    .send(batch ? `[${answers.map(answerJson).join(',')}]` : answerJson(answers[0]!));
}

/** An answer without a body (202: the POST held only notifications). */
function nothing(reply: FastifyReply, status: number): FastifyReply {
  return reply.code(status).send();
}

function acceptsEventStream(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('text/event-stream');
}
