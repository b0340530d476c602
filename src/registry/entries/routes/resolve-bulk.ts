import type { FastifyInstance } from 'fastify';
import type { RateLimitRule } from '../../../http/rate-limit/rules.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { normalizeAll } from '../../normalize-all.ts';
import type { EntityKind, EntryRow, Resolver } from '../kind.ts';

export function resolveBulkRoute<Row extends EntryRow, Fields, Body>(
  app: FastifyInstance,
  kind: EntityKind<Row, Fields, Body>,
  resolve: Resolver,
  rateLimit: RateLimitRule[],
): void {
  const { wire } = kind;
  app.post<{ Body: { domains: string[] } }>(
    `${wire.path}/resolve/bulk`,
    {
      config: { rateLimit },
      schema: {
        ...wire.docs.bulk,
        tags: [wire.tag],
        body: wire.schemas.BulkBody,
        response: { 200: wire.schemas.BulkResults, ...errorResponses(400, 413, 415, 429) },
      },
    },
    async (request) => {
      const normalized = normalizeAll(request.body.domains);
      const found = await resolve([...new Set(normalized.values())]);
      const results: Record<string, unknown> = {};
      for (const [given, domain] of normalized) results[given] = found.get(domain) ?? null;
      return { results };
    },
  );
}
