import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import { agentFormatsRoute } from './routes/agent-formats.ts';
import { agentProductsRoute } from './routes/agent-products.ts';
import { discoverAgentRoute } from './routes/discover-agent.ts';

export { agentProbeLimits, type AgentProbeLimits } from './settings.ts';

export interface AgentProbeOptions {
  ctx: AppContext;
}

/**
 * Probing any agent URL on request (spec section 4): what it speaks and offers
 * (`/api/public/discover-agent`), its creative formats (`agent-formats`) and a sales agent's
 * products for a brief (`agent-products`). Asked live through `ctx.fetcher`, capped in time and
 * size, rate-limited and kept a minute in memory; nothing is stored. Enrolled agents are probed
 * in the background by the agent catalog's prober, with the same calling code (src/client/agents).
 */
export const agentProbePlugin: FastifyPluginAsync<AgentProbeOptions> = async (app, { ctx }) => {
  discoverAgentRoute(app, ctx);
  agentFormatsRoute(app, ctx);
  agentProductsRoute(app, ctx);
};
