import { randomUUID } from 'node:crypto';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Role } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import pkg from '../../../package.json' with { type: 'json' };
import { isRecord } from '../../protocol/json-values.ts';
import { a2aOutcome, a2aTaskOutcome, mcpOutcome, type TaskOutcome } from './task-outcome.ts';

export type AgentProtocol = 'mcp' | 'a2a';

/** One task an agent offers: an MCP tool (with its input schema) or an A2A skill. */
export interface TaskDescription {
  name: string;
  description?: string;
  /** MCP only: the JSON Schema of the tool's arguments. */
  inputSchema?: Record<string, unknown>;
}

/** What an MCP server said of itself in `initialize`. */
export interface McpServerInfo {
  name?: string;
  version?: string;
  protocolVersion?: string;
}

/** One agent, connected over one protocol: its tasks, and calls to them. */
export interface AgentConnection {
  readonly protocol: AgentProtocol;
  /** The endpoint called: the MCP URL, or the A2A agent card's URL. */
  readonly url: string;
  /** MCP: what the server said of itself in `initialize`. */
  readonly server?: McpServerInfo;
  /** A2A: the agent card as the agent served it (before the SDK normalizes it). */
  readonly card?: Record<string, unknown>;
  /** The task names it offers: MCP tools, or A2A skills. */
  listTasks(): Promise<string[]>;
  /** The tasks it offers, with what it says of each. */
  describeTasks(): Promise<TaskDescription[]>;
  call(task: string, args?: Record<string, unknown>, options?: CallOptions): Promise<TaskOutcome>;
  /** A long-running task's state, as `get_task` answers it (MCP) or `tasks/get` (A2A). */
  getTask(taskId: string, options?: CallOptions): Promise<TaskOutcome>;
  /** Asks the agent to cancel a long-running task (`cancel_task`, or A2A `tasks/cancel`). */
  cancelTask(taskId: string, options?: CallOptions): Promise<TaskOutcome>;
  close(): Promise<void>;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Longest wait for this one request's answer (MCP's request timeout); the SDK's 60 s otherwise. */
  timeoutMs?: number;
}

export interface ConnectOptions {
  /** Every request goes through it; see fetch-adapter.ts for one over the SSRF-safe client. */
  fetch: typeof fetch;
  /** Sent as `Authorization` on every request (e.g. `Bearer <token>`). */
  authorization?: string;
  /** How the client names itself to the agent. */
  clientName?: string;
}

/** Connects over MCP (Streamable HTTP) to `url`, the agent's MCP endpoint; the `initialize` exchange is done when this resolves. */
export async function connectMcp(url: string, options: ConnectOptions): Promise<AgentConnection> {
  const client = new McpClient({ name: options.clientName ?? 'ap-client', version: pkg.version });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: options.fetch,
    ...(options.authorization ? { requestInit: { headers: { authorization: options.authorization } } } : {}),
  });
  await client.connect(transport);
  const version = client.getServerVersion();
  const server: McpServerInfo = {
    ...(version ? { name: version.name, version: version.version } : {}),
    ...(transport.protocolVersion ? { protocolVersion: transport.protocolVersion } : {}),
  };
  const describeTasks = async () => {
    const tasks: TaskDescription[] = [];
    let cursor: string | undefined;
    // Bounded: an agent that pages forever does not hold the caller.
    for (let page = 0; page < 20; page++) {
      const listed = await client.listTools(cursor === undefined ? {} : { cursor });
      for (const tool of listed.tools) {
        tasks.push({
          name: tool.name,
          ...(tool.description !== undefined ? { description: tool.description } : {}),
          inputSchema: tool.inputSchema as Record<string, unknown>,
        });
      }
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return tasks;
  };
  const call = async (task: string, args: Record<string, unknown> = {}, options: CallOptions = {}) =>
    mcpOutcome(
      (await client.callTool({ name: task, arguments: args }, undefined, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
      })) as Record<string, unknown>,
    );
  return {
    protocol: 'mcp',
    url,
    server,
    describeTasks,
    listTasks: async () => (await describeTasks()).map((t) => t.name),
    call,
    getTask: (taskId, options) => call('get_task', { task_id: taskId }, options),
    cancelTask: (taskId, options) => call('cancel_task', { task_id: taskId }, options),
    close: () => client.close(),
  };
}

/**
 * Connects over A2A (JSON-RPC binding) to the agent whose card is at `cardUrl`. A task is a message
 * whose data part names it: `{skill, parameters}`, the convention of this project's agents.
 */
export async function connectA2a(cardUrl: string, options: ConnectOptions): Promise<AgentConnection> {
  const authorized: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (options.authorization && !headers.has('authorization')) headers.set('authorization', options.authorization);
    return options.fetch(input, { ...init, headers });
  };
  // Cards of A2A 0.3 (served at the legacy agent.json) are translated, and called with the 0.3 transport.
  const legacyCompat = { enabled: true };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: authorized, legacyCompat })],
    }),
  );
  // The card as served, for callers that show it; the SDK's normalized one drives the client.
  let served: unknown;
  const keepingCard: typeof fetch = async (input, init) => {
    const response = await authorized(input, init);
    if (response.ok)
      served = await response
        .clone()
        .json()
        .catch(() => undefined);
    return response;
  };
  const card = await new DefaultAgentCardResolver({ fetchImpl: keepingCard, legacyCompat }).resolve(cardUrl, '');
  const client = await factory.createFromAgentCard(card);
  const describeTasks = async () =>
    card.skills.map((s): TaskDescription => ({
      name: s.id || s.name,
      ...(s.description ? { description: s.description } : {}),
    }));
  return {
    protocol: 'a2a',
    url: cardUrl,
    ...(isRecord(served) ? { card: served } : {}),
    describeTasks,
    listTasks: async () => (await describeTasks()).map((t) => t.name),
    async call(task, args = {}, options = {}) {
      return a2aOutcome(await client.sendMessage(skillRequest(task, args), a2aOptions(options)));
    },
    getTask: async (taskId, options = {}) =>
      a2aTaskOutcome(await client.getTask({ tenant: '', id: taskId, historyLength: 0 }, a2aOptions(options))),
    cancelTask: async (taskId, options = {}) =>
      a2aTaskOutcome(await client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, a2aOptions(options))),
    // JSON-RPC over plain requests: nothing held open.
    close: async () => {},
  };
}

function a2aOptions(options: CallOptions) {
  return options.signal ? { signal: options.signal } : undefined;
}

/** The A2A request that asks for a task: a message whose one data part is `{skill, parameters}`. */
export function skillRequest(skill: string, parameters: Record<string, unknown>) {
  return {
    tenant: '',
    message: {
      messageId: randomUUID(),
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'data' as const, value: { skill, parameters } },
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
  };
}
