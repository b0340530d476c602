import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { canonicalAgentUrl } from '../../../protocol/agent-url.ts';
import { decodeCursor, encodeCursor } from '../../../protocol/cursor.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import type { IndexSource } from '../index-source.ts';
import { AgentDomains, AgentDomainsQuery } from '../schemas/index.ts';
import { agentDomains } from '../agent-domains.ts';
import { liveIndex } from './live-index.ts';

/** `GET /api/registry/lookup/agent/{agentUrl}/domains`: every publisher domain an agent may sell, in pages. */
export function lookupAgentDomainsRoute(app: FastifyInstance, follower: IndexSource): void {
  app.get<{ Params: { agentUrl: string }; Querystring: Static<typeof AgentDomainsQuery> }>(
    '/api/registry/lookup/agent/:agentUrl/domains',
    {
      schema: {
        summary: 'Domains an agent is authorized for',
        description:
          'The agent URL is URL-encoded into the path (`https%3A%2F%2Fsales.example%2Fmcp`) and compared in canonical form, as everywhere in the registry. Publisher domains in order, in pages: `domains` as strings (what the protocol’s registry client reads), and in `publishers` each with how many of its properties the agent may sell and the grants that say so. `count` is this page’s, `total` all pages’.',
        tags: ['Lookups & Authorization'],
        params: Type.Object({ agentUrl: Type.String({ minLength: 1, maxLength: 2048 }) }),
        querystring: AgentDomainsQuery,
        response: { 200: AgentDomains, ...errorResponses(400, 503) },
      },
    },
    async (request) => {
      const index = liveIndex(follower);
      const agentUrl = request.params.agentUrl;
      const agent = canonicalAgentUrl(agentUrl);
      if (agent === undefined) {
        throw new ApError(
          'validation_failed',
          'Invalid params.agentUrl: must be an absolute URL, URL-encoded into the path.',
          { details: [{ in: 'params', field: 'agentUrl', message: 'must be an absolute URL' }] },
        );
      }
      const limit = request.query.limit ?? 100;
      const after = decodeCursor(request.query.cursor, ['domain'])?.['domain'];
      const all = agentDomains(index, agent);
      const start = after === undefined ? 0 : firstAfter(all, after);
      const page = all.slice(start, start + limit);
      const has_more = start + limit < all.length;
      return {
        agent_url: agentUrl,
        agent_url_canonical: agent,
        total: all.length,
        count: page.length,
        domains: page.map((d) => d.domain),
        publishers: page,
        next_cursor: has_more ? encodeCursor({ domain: page.at(-1)!.domain }) : null,
        has_more,
      };
    },
  );
}

/** Index of the first domain after `after` in the sorted list (binary search). */
function firstAfter(sorted: ReadonlyArray<{ domain: string }>, after: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.domain <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
