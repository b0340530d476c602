import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { liveIndex, type IndexSource } from '../../lookups/index.ts';
import { PublisherListing } from '../publisher-listing.ts';
import { PublisherList, PublishersQuery } from '../schemas.ts';

/** `GET /api/registry/publishers`: every publisher, searchable, in keyset pages, from memory. */
export function listPublishersRoute(app: FastifyInstance, follower: IndexSource): void {
  const listing = new PublisherListing();
  app.get<{ Querystring: PublishersQuery }>(
    '/api/registry/publishers',
    {
      schema: {
        summary: 'List publishers',
        description:
          'Every publisher domain whose adagents.json the registry holds, with its counts. In domain order; with `q`, domains starting with it first, then those with a label ' +
          'starting with it, then any containing it. `status` keeps active or stale ones. Pass `cursor` back for the next page: no publisher present throughout is skipped or repeated.',
        tags: ['Agent Discovery'],
        querystring: PublishersQuery,
        response: { 200: PublisherList, ...errorResponses(400, 503) },
      },
    },
    (request, reply) => reply.send(listing.list(liveIndex(follower), request.query)),
  );
}
