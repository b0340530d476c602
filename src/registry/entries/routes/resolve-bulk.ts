import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { bulkResolveLimit } from '../../limits.ts';
import { normalizeAll } from '../../normalize-all.ts';
import type { EntityKind, EntryRow } from '../kind.ts';

export function resolveBulkRoute<Row extends EntryRow, Fields, Body>(
  app: FastifyInstance,
  { db, config }: AppContext,
  kind: EntityKind<Row, Fields, Body>,
): void {
  const { wire } = kind;
  app.post<{ Body: { domains: string[] } }>(
    `${wire.path}/resolve/bulk`,
    {
      config: { rateLimit: [bulkResolveLimit(config, wire.listKey)] },
      schema: {
        ...wire.docs.bulk,
        tags: [wire.tag],
        body: wire.schemas.BulkBody,
        response: { 200: wire.schemas.BulkResults, ...errorResponses(400, 413, 415, 429) },
      },
    },
    async (request) => {
      const normalized = normalizeAll(request.body.domains);
      const found = await kind.find(db, [...new Set(normalized.values())]);
      const results: Record<string, unknown> = {};
      for (const [given, domain] of normalized) {
        const row = found.get(domain);
        results[given] = row ? wire.resolution(row) : null;
      }
      return { results };
    },
  );
}
