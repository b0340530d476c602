import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { discoveryReport } from '../discovery-report.ts';
import { withAgent } from '../reach-agent.ts';
import { AgentDiscovery, AgentQuery } from '../schemas.ts';
import { probeRoute } from './probe-route.ts';

/** `GET /api/public/discover-agent?url=`: what an agent URL speaks (MCP, A2A) and offers, asked live. */
export function discoverAgentRoute(app: FastifyInstance, ctx: AppContext): void {
  probeRoute(app, ctx, {
    path: '/api/public/discover-agent',
    summary: 'Probe an agent URL for its protocols, tools and capabilities',
    description:
      'Asks the agent now: MCP `initialize` and `tools/list` at the URL, the A2A agent card beside it (`.well-known/agent-card.json`, else the 0.3 `agent.json`), and `get_ap_capabilities` when it lists that task. ' +
      'The answer leads with what the protocol’s registry client reads (`name`, `description`, `protocols`, `type`, `stats`, `tools_count`, `tools`), then the findings per protocol. ' +
      'Without `ap-agent-authorization` the agent is asked anonymously: what it shows publicly is reported, with `auth_required` when it asked for a credential. ' +
      'Only public addresses are reached (a URL that leads elsewhere, even by a redirect, is 400 `url_not_public`); each request is capped at 5 s and 1 MB, the probe at 15 s. ' +
      'An agent that cannot be reached, asks for a credential, or is not an agent answers 502 with `agent_unreachable`, `agent_auth_required` or `not_an_agent`. ' +
      'Answers are kept for a minute per URL (and credential). Shares one budget with the other probes: 10 a minute per IP, or 30 per user with a credential (429 with retry_after).',
    querystring: AgentQuery,
    response: AgentDiscovery,
    ask: (target) => withAgent(ctx.fetcher, target, (found) => discoveryReport(found, target.url, ctx.clock.now())),
  });
}
