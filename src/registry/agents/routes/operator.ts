import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../../db/database.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { operatorSide, type DeclaredAgent } from '../../graph/index.ts';
import { agentDomains, type AuthorizationIndex } from '../../lookups/index.ts';
import { entryOf } from '../entry.ts';
import { OperatorAnswer, OperatorQuery } from '../schemas.ts';
import { agentsOfOperator, type AgentRow } from '../sql.ts';
import { canSee, viewerOf } from '../visibility.ts';

/** Publishers listed per agent; the counts are of all of them. */
const publishersShown = 1000;

/**
 * `GET /api/registry/operator?domain=`: the agents the domain operates (enrolled on it or a host
 * under it, or listed by its brand.json), as far as the caller may see them, each with the
 * publishers whose adagents.json authorizes it. The agents come from the catalog's table and the
 * graph's brand.json rows (few, not a hot path); the publishers from the in-memory index.
 */
export function operatorRoute(app: FastifyInstance, db: Database, index: () => AuthorizationIndex): void {
  app.get<{ Querystring: Static<typeof OperatorQuery> }>(
    '/api/registry/operator',
    {
      config: { auth: 'optional' },
      schema: {
        summary: 'The agents a domain operates, and the publishers that trust them',
        description:
          'Agents enrolled on the domain or a host under it, and agents its brand.json lists, each with the publishers whose adagents.json authorizes it. ' +
          'Anonymous callers see public enrollments; API-tier members also members_only ones; the organization that enrolled an agent also its private ones. ' +
          'An agent the domain’s brand.json lists is shown (sources: brand_json) even when its enrollment is hidden from you, without the catalog’s fields. ' +
          '404 when the registry knows nothing of the domain: no agent you may see, no brand.json, not a publisher.',
        tags: ['Agent Discovery'],
        querystring: OperatorQuery,
        response: { 200: OperatorAnswer, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const domain = normalizeDomain(request.query.domain);
      const viewer = viewerOf(request.principal);
      const declared = await operatorSide(db, domain);
      const rows = (await agentsOfOperator(db, domain, declared.agents.map((a) => a.url))).filter((row) => canSee(viewer, row));
      const graph = index();
      if (rows.length === 0 && !declared.known && graph.publisher(domain) === undefined) {
        throw new ApError('not_found', `The registry knows nothing of ${domain}: no agent you may see is enrolled on it, it has no brand.json, and no publisher by that name.`);
      }
      const byUrl = new Map<string, { row?: AgentRow; declared?: DeclaredAgent }>();
      for (const row of rows) byUrl.set(row.agent_url, { row });
      for (const agent of declared.agents) byUrl.set(agent.url, { ...byUrl.get(agent.url), declared: agent });
      const trusting = new Set<string>();
      const agents = [...byUrl.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([url, { row, declared: listed }]) => {
          const domains = agentDomains(graph, url);
          for (const d of domains) trusting.add(d.domain);
          return {
            ...(row ? entryOf(row) : { agent_url: url }),
            sources: [...(row ? ['catalog' as const] : []), ...(listed ? ['brand_json' as const] : [])],
            ...(listed ? { brand_json: { agent_id: listed.agent_id, agent_type: listed.agent_type } } : {}),
            publisher_count: domains.length,
            property_count: domains.reduce((sum, d) => sum + d.property_count, 0),
            publishers: domains.slice(0, publishersShown).map((d) => ({ domain: d.domain, status: d.status, property_count: d.property_count })),
          };
        });
      return { domain, agents, count: agents.length, publisher_count: trusting.size };
    },
  );
}
