import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../../db/database.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { operatorSide, type DeclaredAgent } from '../../graph/index.ts';
import { agentDomains, type AuthorizationIndex } from '../../lookups/index.ts';
import { entryOf } from '../entry.ts';
import { isAgentType } from '../profile.ts';
import { OperatorAnswer, OperatorQuery, operatorScopes } from '../schemas/index.ts';
import { agentsOfOperator, type AgentRow } from '../sql.ts';
import { canSee, viewerOf, type Visibility } from '../visibility.ts';

/** Publishers listed per agent; the counts are of all of them. */
const publishersShown = 1000;

/** Which visibilities a `scope` keeps: it narrows what the caller may see, never widens it. */
function inScope(scope: (typeof operatorScopes)[number], visibility: Visibility): boolean {
  return (
    scope === 'all' ||
    (scope === 'public' && visibility === 'public') ||
    (scope === 'member' && visibility !== 'private') ||
    (scope === 'private' && visibility === 'private')
  );
}

/** The catalog type a brand.json's agent_type names, or unknown. */
const typeOfListed = (agentType: string) => (isAgentType(agentType) ? agentType : ('unknown' as const));

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
          '`scope` narrows this (public, member, private; all by default), never widens it. Beside our fields, those the protocol’s registry client reads: url, authorized_by, member. ' +
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
      const visible = (
        await agentsOfOperator(
          db,
          domain,
          declared.agents.map((a) => a.url),
        )
      ).filter((row) => canSee(viewer, row));
      const graph = index();
      // Whether the domain is known is judged on all the caller may see: a narrower scope answers fewer agents, never 404.
      if (visible.length === 0 && !declared.known && graph.publisher(domain) === undefined) {
        throw new ApError(
          'not_found',
          `The registry knows nothing of ${domain}: no agent you may see is enrolled on it, it has no brand.json, and no publisher by that name.`,
        );
      }
      const scope = request.query.scope ?? 'all';
      const rows = visible.filter((row) => inScope(scope, row.visibility));
      const byUrl = new Map<string, { row?: AgentRow; declared?: DeclaredAgent }>();
      for (const row of rows) byUrl.set(row.agent_url, { row });
      // What the domain's brand.json lists is public: shown (without its enrollment) in every scope but private, unless its enrollment is.
      for (const agent of declared.agents)
        if (scope !== 'private' || byUrl.has(agent.url))
          byUrl.set(agent.url, { ...byUrl.get(agent.url), declared: agent });
      const trusting = new Set<string>();
      const agents = [...byUrl.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([url, { row, declared: listed }]) => {
          const domains = agentDomains(graph, url);
          for (const d of domains) trusting.add(d.domain);
          const shown = domains.slice(0, publishersShown);
          return {
            ...(row ? entryOf(row) : { agent_url: url, url, type: typeOfListed(listed!.agent_type) }),
            sources: [...(row ? ['catalog' as const] : []), ...(listed ? ['brand_json' as const] : [])],
            ...(listed ? { brand_json: { agent_id: listed.agent_id, agent_type: listed.agent_type } } : {}),
            publisher_count: domains.length,
            property_count: domains.reduce((sum, d) => sum + d.property_count, 0),
            publishers: shown.map((d) => ({ domain: d.domain, status: d.status, property_count: d.property_count })),
            authorized_by: shown.map((d) => {
              const authorizedFor = d.authorizations.find((a) => a.authorized_for)?.authorized_for;
              return {
                publisher_domain: d.domain,
                ...(authorizedFor ? { authorized_for: authorizedFor } : {}),
                source: 'adagents_json' as const,
              };
            }),
          };
        });
      // The member operating the domain: whoever enrolled the first agent shown on the domain itself or a host under it.
      const own = rows.find((row) => row.host === domain || row.host.endsWith(`.${domain}`));
      return {
        domain,
        agents,
        count: agents.length,
        publisher_count: trusting.size,
        ...(own ? { member: { slug: own.organization_slug, display_name: own.organization_name } } : {}),
      };
    },
  );
}
