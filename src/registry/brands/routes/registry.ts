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
    '/api/brands/registry',
    {
      schema: {
        summary: 'List and search brands',
        description: 'Ordered by domain; pages are stable under concurrent writes (keyset cursor).',
        tags: ['Brand Resolution'],
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
        brands: page.map(toEntry),
        total: source ? counts[source] : counts.brand_json + counts.enriched + counts.community,
        counts,
        cursor: hasMore ? encodeCursor({ domain: page.at(-1)!.domain }) : null,
        has_more: hasMore,
      };
    },
  );
}
