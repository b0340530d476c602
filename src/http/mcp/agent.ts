import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { mcpDispatcher } from './dispatcher.ts';
import { serveMcp } from './endpoint.ts';
import { serializedAs } from './serialized.ts';

/** A tool as `tools/list` shows it: name, description, input and output schemas. */
export type ToolDescriptor = ListToolsResult['tools'][number];

/**
 * An agent's answer to one call in the protocol's envelope, as its runtime renders it for every
 * transport: the payload (with its JSON, serialized once), or the error object and the request's
 * context to echo.
 */
export type AgentAnswer =
  | { failed: false; body: Record<string, unknown>; text: string }
  | { failed: true; error: object; context: Record<string, unknown> | undefined };

/** What an agent offers its MCP endpoint: who it is, its tools, and how one is called. */
export interface McpAgent {
  name: string;
  /** Served at `<path>/mcp`. */
  path: string;
  description: string;
  tools: readonly ToolDescriptor[];
  /** Runs a tool for an authenticated request; a failure is an answer too, never thrown. */
  call(tool: string, args: Record<string, unknown>, request: FastifyRequest): Promise<AgentAnswer>;
}

/**
 * An agent over MCP at `<path>/mcp`: its tools listed as it describes them, and each call's
 * answer made a tool result, the payload twice as the spec and MCP clients each expect (JSON text
 * in `content[0]`, the object in `structuredContent`); a failure is a tool result with `isError`,
 * its error object as text and `{status: failed, ap_error, context?}` as structured content.
 */
export function serveAgentMcp(app: FastifyInstance, agent: McpAgent, hostGuard: onRequestAsyncHookHandler): void {
  const dispatch = mcpDispatcher<FastifyRequest>({
    serverInfo: { name: `ap-${agent.name}`, version: '1.0.0' },
    instructions: agent.description,
    tools: [...agent.tools],
    callTool: async (name, args, request) => toolResult(await agent.call(name, args ?? {}, request)),
  });
  serveMcp(app, {
    path: `${agent.path}/mcp`,
    summary: `${agent.name} agent over MCP`,
    tags: ['Agents'],
    hostGuard,
    dispatch,
  });
}

function toolResult(answer: AgentAnswer): Record<string, unknown> {
  if (!answer.failed)
    return {
      content: [{ type: 'text', text: answer.text }],
      structuredContent: serializedAs(answer.body, answer.text),
    };
  const { error, context } = answer;
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(error) }],
    structuredContent: { status: 'failed', ap_error: error, ...(context ? { context } : {}) },
  };
}
