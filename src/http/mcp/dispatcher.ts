import type { FastifyBaseLogger } from 'fastify';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  PingRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type InitializeResult,
  type JSONRPCRequest,
  type ListToolsResult,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC answer to one request: a result or an error. */
export type RpcAnswer = { jsonrpc: '2.0'; id: RequestId | null } & (
  { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } }
);

/** What one POST answers: an HTTP status and the answers (none when it held only notifications). */
export interface McpReply {
  status: number;
  answers: RpcAnswer[];
  /** The POST held an array (a JSON-RPC batch), so the answers are one too. */
  batch: boolean;
}

/** What every call carries: where to log what went wrong. */
export interface McpCallBase {
  log: FastifyBaseLogger;
}

/** An MCP server as the dispatcher serves it: who it is, its tools, and how a tool is called. */
export interface McpServerSpec<C extends McpCallBase> {
  serverInfo: { name: string; version: string };
  instructions?: string | undefined;
  tools: ListToolsResult['tools'];
  /**
   * Answers one `tools/call` with its result (a tool's own failure is a result with `isError`).
   * Throw an `RpcError` for a protocol error (an unknown tool); anything else thrown is a
   * JSON-RPC internal error, logged.
   */
  callTool(name: string, args: Record<string, unknown> | undefined, call: C): Promise<Record<string, unknown>>;
}

// As the SDK's own transport caps them.
const maxBatch = 100;

/**
 * Stateless MCP over JSON-RPC: `initialize`, `ping`, `tools/list` and `tools/call`, with every
 * message checked against the official SDK's schemas. Nothing is built per call: the answers to
 * `initialize` and `tools/list` are made once, and a call goes straight to `callTool`. A
 * `tools/call` needs no `initialize` first, as no session is kept. The agents and the registry's
 * own endpoint both serve through this.
 */
export function mcpDispatcher<C extends McpCallBase>(
  spec: McpServerSpec<C>,
): (body: unknown, call: C) => Promise<McpReply> {
  const capabilities = { tools: { listChanged: false } };
  const tools: ListToolsResult = { tools: spec.tools };

  const callTool = async (request: JSONRPCRequest, call: C): Promise<Record<string, unknown>> => {
    const { name, arguments: args } = check(CallToolRequestSchema, request).params;
    return spec.callTool(name, args, call);
  };

  const answer = async (request: JSONRPCRequest, call: C): Promise<Record<string, unknown>> => {
    switch (request.method) {
      case 'tools/call':
        return callTool(request, call);
      case 'tools/list':
        check(ListToolsRequestSchema, request);
        return tools;
      case 'ping':
        check(PingRequestSchema, request);
        return {};
      case 'initialize': {
        const { params } = check(InitializeRequestSchema, request);
        // As the SDK's server negotiates: the client's version when supported, else our latest.
        const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion)
          ? params.protocolVersion
          : LATEST_PROTOCOL_VERSION;
        return {
          protocolVersion,
          capabilities,
          serverInfo: spec.serverInfo,
          ...(spec.instructions ? { instructions: spec.instructions } : {}),
        } satisfies InitializeResult;
      }
      default:
        throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    }
  };

  const settle = async (
    id: RequestId,
    method: string,
    work: () => Promise<Record<string, unknown>>,
    call: C,
  ): Promise<RpcAnswer> => {
    try {
      return { jsonrpc: '2.0', id, result: await work() };
    } catch (err) {
      if (err instanceof RpcError) return rpcError(id, err.code, err.message, err.data);
      call.log.error({ err, method }, 'MCP request failed');
      return rpcError(id, ErrorCode.InternalError, 'Internal error.');
    }
  };

  const one = async (message: unknown, call: C): Promise<RpcAnswer | undefined> => {
    const plain = plainToolCall(message);
    if (plain) return settle(plain.id, 'tools/call', () => spec.callTool(plain.name, plain.args, call), call);
    if (!JSONRPCMessageSchema.safeParse(message).success)
      return rpcError(idOf(message), ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message.');
    // Notifications (initialized, cancelled, ...) and responses need no answer: nothing is kept between calls.
    if (!isJSONRPCRequest(message)) return undefined;
    return settle(message.id, message.method, () => answer(message, call), call);
  };

  return async (body, call) => {
    if (!Array.isArray(body)) {
      const reply = await one(body, call);
      if (!reply) return { status: 202, answers: [], batch: false };
      // A message that is not JSON-RPC at all is the transport's 400, as the SDK answers it.
      return {
        status: 'error' in reply && reply.error.code === ErrorCode.InvalidRequest ? 400 : 200,
        answers: [reply],
        batch: false,
      };
    }
    if (body.length === 0 || body.length > maxBatch) {
      return {
        status: 400,
        answers: [
          rpcError(null, ErrorCode.InvalidRequest, `Invalid Request: a batch holds 1 to ${maxBatch} messages.`),
        ],
        batch: false,
      };
    }
    // The lifecycle forbids initialize inside a batch, as the SDK's transport enforces.
    if (body.some((m) => isJSONRPCRequest(m) && m.method === 'initialize')) {
      return {
        status: 400,
        answers: [rpcError(null, ErrorCode.InvalidRequest, 'Invalid Request: initialize must be sent alone.')],
        batch: false,
      };
    }
    const answers = (await Promise.all(body.map((message) => one(message, call)))).filter((a) => a !== undefined);
    return { status: answers.length === 0 ? 202 : 200, answers, batch: true };
  };
}

/** A JSON-RPC error to answer (invalid params, unknown method or tool). */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

export function rpcError(id: RequestId | null, code: number, message: string, data?: unknown): RpcAnswer {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

interface Schema<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
}

function check<T>(schema: Schema<T>, request: JSONRPCRequest): T {
  const parsed = schema.safeParse(request);
  if (!parsed.success) throw invalidParams(parsed.error);
  return parsed.data;
}

function invalidParams(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): RpcError {
  const issue = error.issues[0];
  const where = issue ? issue.path.map(String).join('.') : '';
  return new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params${where ? ` at ${where}` : ''}: ${issue?.message ?? 'invalid'}.`,
  );
}

const requestKeys = new Set(['jsonrpc', 'id', 'method', 'params']);
const callParamKeys = new Set(['name', 'arguments']);

/**
 * A `tools/call` of the shape nearly every client sends (no `_meta`, no task), checked by hand:
 * what passes here passes the SDK's schemas too, which decide every other message. Three schema
 * parses per call cost more than the rest of the dispatch.
 */
function plainToolCall(
  message: unknown,
): { id: RequestId; name: string; args: Record<string, unknown> | undefined } | undefined {
  if (!isPlainObject(message) || message['jsonrpc'] !== '2.0' || message['method'] !== 'tools/call') return undefined;
  const { id, params } = message;
  if (!(typeof id === 'string' || Number.isSafeInteger(id)) || !isPlainObject(params)) return undefined;
  if (!Object.keys(message).every((key) => requestKeys.has(key))) return undefined;
  if (!Object.keys(params).every((key) => callParamKeys.has(key))) return undefined;
  const { name, arguments: args } = params;
  if (typeof name !== 'string' || !(args === undefined || isPlainObject(args))) return undefined;
  return { id: id as RequestId, name, args };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function idOf(message: unknown): RequestId | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
