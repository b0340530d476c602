import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { bulkResolveLimit } from '../../limits.ts';
import { toPolicy } from '../rows.ts';
import { BulkBody, BulkResults } from '../schemas.ts';
import { policiesById } from '../sql.ts';

/** `POST /api/policies/resolve/bulk`: up to 100 policies in one query, each keyed as sent (null when unknown). */
export function resolveBulkRoute(app: FastifyInstance, { db, config }: AppContext): void {
  app.post<{ Body: Static<typeof BulkBody> }>(
    '/api/policies/resolve/bulk',
    {
      config: { rateLimit: [bulkResolveLimit(config, 'policies')] },
      schema: {
        summary: 'Resolve up to 100 policies',
        description:
          'Each policy as resolve answers it (the current version), keyed by the policy_id as sent; null for an unknown one.',
        tags: ['Policy Registry'],
        body: BulkBody,
        response: { 200: BulkResults, ...errorResponses(400, 413, 415, 429) },
      },
    },
    async (request) => {
      const found = await policiesById(db, request.body.policy_ids);
      const results: Record<string, unknown> = {};
      for (const id of request.body.policy_ids) {
        const row = found.get(id);
        results[id] = row ? toPolicy(row) : null;
      }
      return { results };
    },
  );
}
