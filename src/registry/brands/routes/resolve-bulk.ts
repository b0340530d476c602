import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { bulkResolveLimit } from '../../limits.ts';
import { normalizeAll } from '../../normalize-all.ts';
import { BulkBody, BulkBrands } from '../schemas.ts';
import { resolveMany, toResolution } from '../service.ts';

export function resolveBulkRoute(app: FastifyInstance, { db, config }: AppContext): void {
  app.post<{ Body: Static<typeof BulkBody> }>(
    '/api/brands/resolve/bulk',
    {
      config: { rateLimit: [bulkResolveLimit(config, 'brands')] },
      schema: {
        summary: 'Resolve up to 100 brand domains',
        tags: ['Brand Resolution'],
        body: BulkBody,
        response: { 200: BulkBrands, ...errorResponses(400, 413, 415, 429) },
      },
    },
    async (request) => {
      const normalized = normalizeAll(request.body.domains);
      const found = await resolveMany(db, [...normalized.values()]);
      const results: Record<string, ReturnType<typeof toResolution> | null> = {};
      for (const [given, domain] of normalized) {
        const row = found.get(domain);
        results[given] = row ? toResolution(row) : null;
      }
      return { results };
    },
  );
}
