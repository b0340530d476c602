import type { McpAgent, ToolDescriptor } from '../../http/mcp/agent.ts';
import { AgentError } from '../../protocol/errors.ts';
import { advertisedInput, advertisedOutput } from './arguments.ts';
import { answered, echoOf, errorBody } from './envelope.ts';
import type { TaskRunner } from './runner.ts';
import type { AgentTask, Tenant } from './task.ts';

/**
 * A tenant's tasks as the tools its MCP endpoint serves (http/mcp/agent.ts): one tool a task,
 * with the input and output schemas it advertises (runtime/arguments.ts), listed once; a call runs
 * the task of that name and answers in the protocol envelope (runtime/envelope.ts), its context
 * echoed and no credential of the request echoed back.
 */
export function taskTools(tenant: Tenant, runner: TaskRunner): McpAgent {
  return {
    name: tenant.name,
    path: tenant.path,
    description: tenant.description,
    tools: runner.tasks.map(toolOf),
    async call(name, args, request) {
      const echo = echoOf(args, request.headers.authorization);
      try {
        return { failed: false, ...answered(await runner.run(name, args, request.principal!), echo) };
      } catch (err) {
        if (!(err instanceof AgentError)) request.log.error({ err, task: name }, 'agent task failed');
        return { failed: true, error: errorBody(err, echo), context: echo.context };
      }
    },
  };
}

function toolOf(task: AgentTask): ToolDescriptor {
  const outputSchema = advertisedOutput(task);
  return {
    name: task.name,
    description: task.description,
    inputSchema: advertisedInput(task) as ToolDescriptor['inputSchema'],
    ...(outputSchema ? { outputSchema: outputSchema as NonNullable<ToolDescriptor['outputSchema']> } : {}),
  };
}
