import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { decodeCursor, encodeCursor } from '../../../protocol/cursor.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { RegistryPage, RegistryQuery } from '../schemas.ts';
import { toEntry } from '../service.ts';
import { countBySource, listPage } from '../sql.ts';

export function registryRoute(app: FastifyInstance, { db }: AppContext): void {
  app.get<{ Querystring: Static<typeof RegistryQuery> }>(
    '/api/properties/registry',
    {
      schema: {
        summary: 'List and search property entries',
        description: 'Ordered by publisher domain; pages are stable under concurrent writes (keyset cursor).',
        tags: ['Property Resolution'],
        querystring: RegistryQuery,
        response: { 200: RegistryPage, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { q, source, cursor } = request.query;
      const limit = request.query.limit ?? 50;
      const after = decodeCursor(cursor, ['domain'])?.domain;
      const [rows, counts] = await Promise.all([listPage(db, { q, source, after, limit }), countBySource(db, q)]);
      const page = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      return {
        properties: page.map(toEntry),
        total: source ? counts[source] : counts.adagents_json + counts.community,
        counts,
        cursor: hasMore ? encodeCursor({ domain: page.at(-1)!.publisher_domain }) : null,
        has_more: hasMore,
      };
    },
  );
}
