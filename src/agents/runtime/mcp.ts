import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { Principal } from '../../auth/index.ts';
import { mcpDispatcher, type McpCallBase } from '../../http/mcp/dispatcher.ts';
import { serveMcp } from '../../http/mcp/endpoint.ts';
import { AgentError } from '../../protocol/errors.ts';
import { advertisedInput, advertisedOutput } from './arguments.ts';
import { echoOf, mcpToolError, mcpToolResult } from './envelope.ts';
import type { TaskRunner } from './runner.ts';
import type { Tenant } from './task.ts';

/**
 * A tenant over MCP at `<path>/mcp` (http/mcp/: stateless Streamable HTTP, the dispatcher made
 * once per tenant, its tools list with their input and output schemas computed then). Results
 * carry the payload twice, as the spec and MCP clients each expect: JSON text in `content[0]` and
 * the object in `structuredContent`; errors are tool results with `isError` (runtime/envelope.ts).
 */
export function mountMcp(
  app: FastifyInstance,
  tenant: Tenant,
  runner: TaskRunner,
  hostGuard: onRequestAsyncHookHandler,
): void {
  const dispatch = mcpDispatcher<TenantCall>({
    serverInfo: { name: `ap-${tenant.name}`, version: '1.0.0' },
    instructions: tenant.description,
    tools: runner.tasks.map((task) => {
      const outputSchema = advertisedOutput(task);
      return {
        name: task.name,
        description: task.description,
        inputSchema: advertisedInput(task) as { type: 'object' },
        ...(outputSchema ? { outputSchema: outputSchema as { type: 'object' } } : {}),
      };
    }),
    async callTool(name, args, call) {
      const echo = echoOf(args, call.authorization);
      try {
        return mcpToolResult(await runner.run(name, args ?? {}, call.principal), echo);
      } catch (err) {
        if (!(err instanceof AgentError)) call.log.error({ err, task: name }, 'agent task failed');
        return mcpToolError(err, echo);
      }
    },
  });
  serveMcp(app, {
    path: `${tenant.path}/mcp`,
    summary: `${tenant.name} agent over MCP`,
    tags: ['Agents'],
    hostGuard,
    dispatch: (body, request) =>
      dispatch(body, { principal: request.principal!, authorization: request.headers.authorization, log: request.log }),
  });
}

interface TenantCall extends McpCallBase {
  principal: Principal;
  /** The request's Authorization header, so no answer echoes its token. */
  authorization: string | undefined;
}
