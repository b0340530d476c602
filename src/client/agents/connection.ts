import { randomUUID } from 'node:crypto';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Role } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import pkg from '../../../package.json' with { type: 'json' };
import { a2aOutcome, mcpOutcome, type TaskOutcome } from './task-outcome.ts';

export type AgentProtocol = 'mcp' | 'a2a';

/** One agent, connected over one protocol: its tasks, and calls to them. */
export interface AgentConnection {
  readonly protocol: AgentProtocol;
  /** The endpoint called: the MCP URL, or the A2A agent card's URL. */
  readonly url: string;
  /** The task names it offers: MCP tools, or A2A skills. */
  listTasks(): Promise<string[]>;
  call(task: string, args?: Record<string, unknown>): Promise<TaskOutcome>;
  close(): Promise<void>;
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
  return {
    protocol: 'mcp',
    url,
    async listTasks() {
      const names: string[] = [];
      let cursor: string | undefined;
      // Bounded: an agent that pages forever does not hold the caller.
      for (let page = 0; page < 20; page++) {
        const listed = await client.listTools(cursor === undefined ? {} : { cursor });
        names.push(...listed.tools.map((t) => t.name));
        cursor = listed.nextCursor;
        if (cursor === undefined) break;
      }
      return names;
    },
    async call(task, args = {}) {
      return mcpOutcome((await client.callTool({ name: task, arguments: args })) as Record<string, unknown>);
    },
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
    async call(task, args = {}) {
      return a2aOutcome(await client.sendMessage(skillRequest(task, args)));
    },
    // JSON-RPC over plain requests: nothing held open.
    close: async () => {},
  };
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
