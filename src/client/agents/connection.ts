import { randomUUID } from 'node:crypto';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Role } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import pkg from '../../../package.json' with { type: 'json' };
import { a2aOutcome, a2aTaskOutcome, mcpOutcome, type TaskOutcome } from './task-outcome.ts';

export type AgentProtocol = 'mcp' | 'a2a';

/** One agent, connected over one protocol: its tasks, and calls to them. */
export interface AgentConnection {
  readonly protocol: AgentProtocol;
  /** The endpoint called: the MCP URL, or the A2A agent card's URL. */
  readonly url: string;
  /** The task names it offers: MCP tools, or A2A skills. */
  listTasks(): Promise<string[]>;
  /** The tasks with what the agent says of them: an MCP tool's input schema, an A2A skill's description. */
  tools(): Promise<AgentTool[]>;
  call(task: string, args?: Record<string, unknown>, options?: CallOptions): Promise<TaskOutcome>;
  /** A long-running task's state, as `get_task` answers it (MCP) or `tasks/get` (A2A). */
  getTask(taskId: string, options?: CallOptions): Promise<TaskOutcome>;
  /** Asks the agent to cancel a long-running task (`cancel_task`, or A2A `tasks/cancel`). */
  cancelTask(taskId: string, options?: CallOptions): Promise<TaskOutcome>;
  close(): Promise<void>;
}

export interface AgentTool {
  name: string;
  description?: string;
  /** MCP tools only: A2A skills carry no input schema. */
  inputSchema?: Record<string, unknown>;
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
  const connection: AgentConnection = {
    protocol: 'mcp',
    url,
    async listTasks() {
      return (await connection.tools()).map((t) => t.name);
    },
    async tools() {
      const tools: AgentTool[] = [];
      let cursor: string | undefined;
      // Bounded: an agent that pages forever does not hold the caller.
      for (let page = 0; page < 20; page++) {
        const listed = await client.listTools(cursor === undefined ? {} : { cursor });
        tools.push(...listed.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), inputSchema: t.inputSchema as Record<string, unknown> })));
        cursor = listed.nextCursor;
        if (cursor === undefined) break;
      }
      return tools;
    },
    async call(task, args = {}, options = {}) {
      return mcpOutcome((await client.callTool({ name: task, arguments: args }, undefined, requestOptions(options))) as Record<string, unknown>);
    },
    getTask: (taskId, options) => connection.call('get_task', { task_id: taskId }, options),
    cancelTask: (taskId, options) => connection.call('cancel_task', { task_id: taskId }, options),
    close: () => client.close(),
  };
  return connection;
}

function requestOptions(options: CallOptions) {
  return { ...(options.signal ? { signal: options.signal } : {}), ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}) };
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
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: authorized })],
    }),
  );
  const card = await new DefaultAgentCardResolver({ fetchImpl: authorized }).resolve(cardUrl, '');
  const client = await factory.createFromAgentCard(card);
  return {
    protocol: 'a2a',
    url: cardUrl,
    listTasks: async () => card.skills.map((s) => s.id || s.name),
    tools: async () => card.skills.map((s) => ({ name: s.id || s.name, ...(s.description ? { description: s.description } : {}) })),
    async call(task, args = {}, options = {}) {
      return a2aOutcome(await client.sendMessage(skillRequest(task, args), a2aOptions(options)));
    },
    getTask: async (taskId, options = {}) => a2aTaskOutcome(await client.getTask({ tenant: '', id: taskId, historyLength: 0 }, a2aOptions(options))),
    cancelTask: async (taskId, options = {}) => a2aTaskOutcome(await client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, a2aOptions(options))),
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
      parts: [{ content: { $case: 'data' as const, value: { skill, parameters } }, metadata: undefined, filename: '', mediaType: 'application/json' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  };
}

/** Where an agent's A2A card is: beside its endpoint (`/sales/mcp` → `/sales/.well-known/agent-card.json`), or the URL itself when it names a card. */
export function a2aCardUrl(agentUrl: string): string {
  const url = new URL(agentUrl);
  if (/\/agent(-card)?\.json$/.test(url.pathname)) return url.href;
  const path = url.pathname.replace(/\/+$/, '').replace(/\/(mcp|a2a)$/, '');
  return `${url.origin}${path}/.well-known/agent-card.json`;
}
