import type { FastifyInstance } from 'fastify';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { liveIndex, type IndexSource } from '../../lookups/index.ts';
import { Stats } from '../schemas.ts';
import type { RegistrySummary } from '../summary.ts';

/** `GET /api/registry/stats`: registry statistics, all from memory. */
export function getStatsRoute(app: FastifyInstance, follower: IndexSource, summary: RegistrySummary): void {
  app.get(
    '/api/registry/stats',
    {
      schema: {
        summary: 'Registry statistics',
        description:
          'Publishers, properties, collections and authorizations as this instance’s authorization index holds them (current to `index_cursor`), and brands, enrolled agents ' +
          'by type, the feed’s last day and crawl health as counted in the background at `as_of` (about every minute). No request reads the database.',
        tags: ['Agent Discovery'],
        response: { 200: Stats, ...errorResponses(503) },
      },
    },
    async (_request, reply) => {
      const counted = await summary.counted();
      if (!counted)
        throw new ApError('service_unavailable', 'The registry statistics are still being counted; retry shortly.');
      const index = liveIndex(follower);
      const t = index.totals();
      return reply.send({
        publishers: { total: t.publishers, active: t.publishers - t.stalePublishers, stale: t.stalePublishers },
        properties: { total: t.properties, active: t.properties - t.staleProperties, stale: t.staleProperties },
        collections: { total: t.collections },
        authorizations: { total: t.authorizations, agents: t.agents },
        index_cursor: follower.cursor ?? null,
        ...counted,
      });
    },
  );
}
