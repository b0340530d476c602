import type { Static } from 'typebox';
import type { AppContext } from '../../context.ts';
import { validateSchema } from '../../protocol/schemas.ts';
import type { AgentTarget } from './agent-target.ts';
import { probeCaps } from './limits.ts';
import { callTask, withAgent } from './reach-agent.ts';
import type { AgentFormats, AgentProducts } from './schemas.ts';

/** One task asked of an agent by a probe, and how its answer is judged. */
export interface TaskProbe {
  task: string;
  args: Record<string, unknown>;
  /** The array the answer must carry to be the task's answer at all. */
  expected: string;
  /** The published schema its answer is checked against. */
  schema: string;
}

export type TaskProbeAnswer = Static<typeof AgentFormats> | Static<typeof AgentProducts>;

/**
 * Calls the task on the agent at `target` (over MCP when it speaks both) and returns its answer
 * with the published schema's findings; an answer that is not the task's at all is an error.
 */
export async function probeTask(ctx: AppContext, target: AgentTarget, probe: TaskProbe): Promise<TaskProbeAnswer> {
  return withAgent(
    ctx.fetcher,
    target,
    async (found) => {
      const agent = found.connections[0]!;
      const { data, latencyMs } = await callTask(found, agent, target, probe.task, probe.args, probe.expected);
      const issues = validateSchema(probe.schema, data)
        .errors.slice(0, probeCaps.schemaIssues)
        .map(({ path, message }) => ({ path, message }));
      const answer = {
        success: true as const,
        [probe.expected]: data[probe.expected],
        agent_url: target.url,
        protocol: agent.protocol,
        latency_ms: latencyMs,
        response: data,
        schema_issues: issues,
        probed_at: ctx.clock.now().toISOString(),
      };
      // callTask made sure the payload carries its `expected` array.
      return answer as TaskProbeAnswer;
    },
    { maxBytes: probeCaps.maxTaskBytes },
  );
}
