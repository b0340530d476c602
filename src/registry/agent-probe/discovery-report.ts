import type { Static } from 'typebox';
import {
  describeError,
  readCapabilities,
  type AgentDiscovery as Found,
  type TaskDescription,
} from '../../client/agents/index.ts';
import { isRecord, items } from '../../protocol/json-values.ts';
import type { AgentDiscovery } from './schemas.ts';

/**
 * What the agent found at a URL shows of itself: its MCP server and tools, its A2A card, and
 * get_ap_capabilities when it lists that task (over MCP when it speaks both); and, as the
 * protocol's registry client reads a discovery, its name, type, tasks and counts.
 */
export async function discoveryReport(
  found: Found,
  agentUrl: string,
  probedAt: Date,
): Promise<Static<typeof AgentDiscovery>> {
  const { mcp, a2a } = found;
  const problems: Static<typeof AgentDiscovery>['problems'] = { ...found.problems };
  const tools = mcp
    ? await mcp
        .describeTasks()
        .catch((err: unknown) => ((problems.mcp = `tools/list failed: ${describeError(err)}`), []))
    : [];
  const agent = found.connections[0]!;
  const described: TaskDescription[] = mcp ? tools : await agent.describeTasks().catch(() => []);
  const tasks = described.map((t) => t.name);
  let capabilities: Record<string, unknown> | null = null;
  if (tasks.includes('get_ap_capabilities')) {
    const answer = await readCapabilities(agent);
    if ('document' in answer) capabilities = answer.document;
    else problems.capabilities = answer.problem;
  }
  const card = a2a?.card ?? {};
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
  const name = text(card['name']) ?? text(mcp?.server?.name) ?? new URL(agentUrl).host;
  const description = text(card['description']);
  const portfolio = isRecord(capabilities?.['media_buy']) ? capabilities['media_buy']['portfolio'] : undefined;
  const publishers =
    isRecord(portfolio) && Array.isArray(portfolio['publisher_domains'])
      ? portfolio['publisher_domains'].length
      : undefined;
  return {
    name,
    ...(description !== undefined ? { description } : {}),
    type: agentType(capabilities, tasks),
    stats: publishers !== undefined ? { publisher_count: publishers } : {},
    tools_count: described.length,
    tools: described.map((t) => ({
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
    })),
    agent_url: agentUrl,
    protocols: found.connections.map((c) => c.protocol),
    latency_ms: found.latencyMs ?? 0,
    auth_required: found.authRequired,
    mcp: mcp
      ? {
          url: mcp.url,
          server: {
            ...(mcp.server?.name ? { name: mcp.server.name } : {}),
            ...(mcp.server?.version ? { version: mcp.server.version } : {}),
          },
          protocol_version: mcp.server?.protocolVersion ?? null,
          tools: tools.map((t) => ({
            name: t.name,
            ...(t.description !== undefined ? { description: t.description } : {}),
            ...(t.inputSchema ? { input_schema: t.inputSchema } : {}),
          })),
        }
      : null,
    a2a: a2a ? { card_url: a2a.url, card } : null,
    capabilities,
    problems,
    probed_at: probedAt.toISOString(),
  };
}

/** The catalog's type for a protocol an agent declares (enums/ap-protocol.json), in the order a multi-protocol agent is typed by. */
const typeOfProtocol: Record<string, string> = {
  media_buy: 'sales',
  signals: 'signals',
  creative: 'creative',
  governance: 'governance',
  brand: 'brand',
  sponsored_intelligence: 'si',
};

/** The task that marks each type, for an agent whose capabilities say nothing; first match wins (a sales agent lists creative formats too). */
const typeOfTask: Record<string, string> = {
  get_products: 'sales',
  get_signals: 'signals',
  list_creative_formats: 'creative',
  build_creative: 'creative',
  check_governance: 'governance',
  get_brand_identity: 'brand',
};

function agentType(capabilities: Record<string, unknown> | null, tasks: string[]): string {
  const declared = items(capabilities?.['supported_protocols']).flatMap((p) =>
    typeof p === 'string' && typeOfProtocol[p] ? [typeOfProtocol[p]] : [],
  );
  if (declared.length > 0) return declared[0]!;
  return Object.entries(typeOfTask).find(([task]) => tasks.includes(task))?.[1] ?? 'unknown';
}
