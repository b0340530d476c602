import type { FastifyInstance } from 'fastify';
import type { Tenant } from './runtime/index.ts';
import { advertisedTaskNames } from './runtime/index.ts';

/**
 * The deployment's `/.well-known/adagents.json` (agent-tasks spec section 1): the agents it serves
 * and their tools. Where it overlaps an adagents.json it is one, so a validator reads it:
 * `authorized_agents` names each agent that sells publishers' properties, by the selectors of
 * what it sells. `tenants` is ours: every agent, its endpoints and its tools.
 */
export function listingRoutes(app: FastifyInstance, tenants: readonly Tenant[], base: () => string): void {
  app.get(
    '/.well-known/adagents.json',
    { schema: { summary: 'The agents this deployment serves, and their tools', tags: ['Agents'] } },
    async (_request, reply) => {
      const url = base();
      return reply.header('cache-control', 'public, max-age=300').send({
        $schema: '/schemas/3.0.6/adagents.json',
        authorized_agents: tenants.flatMap((tenant) => {
          const selectors = tenant.sells?.() ?? [];
          if (selectors.length === 0) return [];
          return [
            {
              url: `${url}${tenant.path}/mcp`,
              authorized_for: tenant.description,
              authorization_type: 'publisher_properties',
              publisher_properties: selectors,
            },
          ];
        }),
        tenants: tenants.map((tenant) => ({
          name: tenant.name,
          description: tenant.description,
          protocols: tenant.protocols,
          mcp: `${url}${tenant.path}/mcp`,
          a2a: `${url}${tenant.path}/a2a`,
          agent_card: `${url}${tenant.path}/.well-known/agent-card.json`,
          tools: advertisedTaskNames(tenant),
        })),
      });
    },
  );
}
