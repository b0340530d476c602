import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { SearchPageSchema, SearchQueryString } from '../schemas/index.ts';
import type { AgentSearch } from '../search/agent-search.ts';
import { searchQuery } from '../search/search-query.ts';
import { viewerOf } from '../visibility.ts';

/** `GET /api/registry/agents/search`: sales agents by what they sell, ranked, from memory. */
export function searchAgentsRoute(app: FastifyInstance, search: AgentSearch): void {
  app.get<{ Querystring: Static<typeof SearchQueryString> }>(
    '/api/registry/agents/search',
    {
      config: { auth: 'required' },
      schema: {
        summary: 'Search agents by inventory profile',
        description:
          'Sales agents (every agent a publisher’s adagents.json authorizes, and enrolled sales agents the caller may see) by the inventory their profile shows: ' +
          'filters combine with AND across dimensions and OR within one (each CSV at most 100 values). Ranked by relevance_score: for each dimension filtered on, ' +
          'the share of its values the agent has, plus 0.1·ln(property_count + 1), plus 0.05 with TMP; ties in agent URL order. The cursor pages through the ' +
          'ranking as it was at the first page, so no agent is skipped or repeated while profiles change. `type` keeps agents of one type (an agent only publishers’ adagents.json ' +
          'name is a sales agent); `sort` is relevance, the only order. Each result is the profile as the spec shows it and, beside it, as the protocol’s registry client reads it ' +
          '(url, name, type, inventory_profile, match, and compliance_summary for an enrolled agent the registry has probed).',
        tags: ['Agent Discovery'],
        querystring: SearchQueryString,
        response: { 200: SearchPageSchema, ...errorResponses(400, 401, 410) },
      },
    },
    // The body as kept (see AgentSearch): bytes are sent as they are, not serialized again.
    async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send(
          search.search(
            searchQuery(request.query),
            viewerOf(request.principal),
            request.query.limit ?? 50,
            request.query.cursor,
          ),
        ),
  );
}
