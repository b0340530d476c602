import type { Static } from 'typebox';
import { describeError, readCapabilities, type AgentDiscovery as Found } from '../../client/agents/index.ts';
import type { AgentDiscovery } from './schemas.ts';

/**
 * What the agent found at a URL shows of itself: its MCP server and tools, its A2A card, and
 * get_ap_capabilities when it lists that task (over MCP when it speaks both).
 */
export async function discoveryReport(found: Found, agentUrl: string, probedAt: Date): Promise<Static<typeof AgentDiscovery>> {
  const { mcp, a2a } = found;
  const problems: Static<typeof AgentDiscovery>['problems'] = { ...found.problems };
  const tools = mcp ? await mcp.describeTasks().catch((err: unknown) => ((problems.mcp = `tools/list failed: ${describeError(err)}`), [])) : [];
  const agent = found.connections[0]!;
  const tasks = mcp ? tools.map((t) => t.name) : await agent.listTasks().catch(() => []);
  let capabilities: Record<string, unknown> | null = null;
  if (tasks.includes('get_ap_capabilities')) {
    const answer = await readCapabilities(agent);
    if ('document' in answer) capabilities = answer.document;
    else problems.capabilities = answer.problem;
  }
  return {
    agent_url: agentUrl,
    protocols: found.connections.map((c) => c.protocol),
    latency_ms: found.latencyMs ?? 0,
    auth_required: found.authRequired,
    mcp: mcp
      ? {
          url: mcp.url,
          server: { ...(mcp.server?.name ? { name: mcp.server.name } : {}), ...(mcp.server?.version ? { version: mcp.server.version } : {}) },
          protocol_version: mcp.server?.protocolVersion ?? null,
          tools: tools.map((t) => ({ name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), ...(t.inputSchema ? { input_schema: t.inputSchema } : {}) })),
        }
      : null,
    a2a: a2a ? { card_url: a2a.url, card: a2a.card ?? {} } : null,
    capabilities,
    problems,
    probed_at: probedAt.toISOString(),
  };
}
