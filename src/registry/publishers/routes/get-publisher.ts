import type { FastifyInstance } from 'fastify';
import { normalizeRequestDomain } from '../../../protocol/domain.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { liveIndex, type IndexSource } from '../../lookups/index.ts';
import { publisherView } from '../publisher-view.ts';
import { Publisher, PublisherQuery } from '../schemas.ts';

/** `GET /api/registry/publisher?domain=`: what a publisher domain publishes and whom it authorizes, from memory. */
export function getPublisherRoute(app: FastifyInstance, follower: IndexSource): void {
  app.get<{ Querystring: { domain: string } }>(
    '/api/registry/publisher',
    {
      schema: {
        summary: 'A publisher: its inventory and the agents it authorizes',
        description:
          'Public; membership does not change the answer. From the publisher’s adagents.json as the registry last projected it: the properties it declares (`properties[]`), ' +
          'its collections, and each `authorized_agents[]` entry with its `authorized_for`, `delegation_type`, what it selects (as declared) and the properties that covers now. ' +
          '`adagents` says whether the file is current (`stale` after a failed re-crawl) and where it was read. 404 when the registry has no adagents.json for the domain.',
        tags: ['Agent Discovery'],
        querystring: PublisherQuery,
        response: { 200: Publisher, ...errorResponses(400, 404, 503) },
      },
    },
    (request, reply) => {
      const domain = normalizeRequestDomain(request.query.domain, { field: 'domain', in: 'querystring' });
      const view = publisherView(liveIndex(follower), domain);
      if (!view)
        throw new ApError(
          'not_found',
          `The registry has no adagents.json for ${domain}; POST /api/registry/crawl-request asks for a crawl.`,
        );
      return reply.send(view);
    },
  );
}
