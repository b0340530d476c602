import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '../../context.ts';
import { mcpDispatcher, RpcError, type McpReply, type McpServerSpec } from '../../http/mcp/dispatcher.ts';
import { serveMcp } from '../../http/mcp/endpoint.ts';
import { deploymentHostCheck } from '../../http/mcp/host-check.ts';
import type { RouteEntry } from '../../http/route-table.ts';
import { forward } from './forward.ts';
import { toolDescription, toolInputSchema } from './input-schema.ts';
import { registryTools, type RegistryTool } from './tools.ts';

export interface RegistryMcpOptions {
  ctx: AppContext;
  /** Every route of the app, as registered: the tools' routes are found in it once the app is ready. */
  routes: readonly RouteEntry[];
}

/**
 * The registry over MCP at `/mcp` (Streamable HTTP, stateless, http/mcp/ as the agents serve
 * theirs): one tool per read route (tools.ts), each forwarded to its route in this process, so a
 * tool answers exactly what its route answers. The same credentials as the REST API; its 401
 * names `/.well-known/oauth-protected-resource/mcp`. The routes the tools mirror are read when the
 * app is ready.
 */
export const registryMcpPlugin: FastifyPluginAsync<RegistryMcpOptions> = async (app, { ctx, routes }) => {
  let dispatch: ((body: unknown, request: FastifyRequest) => Promise<McpReply>) | undefined;
  app.addHook('onReady', async () => {
    dispatch = mcpDispatcher(registryServer(app, routes, registryTools));
  });
  serveMcp(app, {
    path: '/mcp',
    summary: 'The registry over MCP',
    tags: ['MCP'],
    config: { protectedResource: 'mcp' },
    hostGuard: deploymentHostCheck(ctx.config),
    dispatch: (body, request) => dispatch!(body, request),
  });
};

function registryServer(
  app: FastifyInstance,
  routes: readonly RouteEntry[],
  tools: readonly RegistryTool[],
): McpServerSpec<FastifyRequest> {
  const resolve = (id: string) => app.getSchema(id);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return {
    serverInfo: { name: 'ap-registry', version: '1.0.0' },
    instructions:
      'The ap registry: resolve brands and publishers, find agents and what they are authorized to sell, check authorizations in real time and read the change feed. Each tool answers exactly what its REST route answers; an answer of 400 or more comes back as a tool error carrying the route’s error body.',
    tools: tools.map((tool) => {
      const route = routes.find((r) => r.method === tool.method && r.url === tool.url);
      if (!route)
        throw new Error(`the MCP tool ${tool.name} mirrors ${tool.method} ${tool.url}, which is not registered`);
      return {
        name: tool.name,
        description: toolDescription(route),
        inputSchema: toolInputSchema(route, resolve),
        annotations: {
          title: route.schema?.summary ?? tool.name,
          readOnlyHint: true,
          idempotentHint: true,
          openWorldHint: false,
        },
      };
    }),
    async callTool(name, args, request) {
      const tool = byName.get(name);
      // As the MCP specification's own example answers an unknown tool.
      if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      return forward(app, tool, args ?? {}, request);
    },
  };
}
