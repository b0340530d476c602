import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { proofCheck } from '../../ownership/index.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { saveLimits } from '../../limits.ts';
import { RollbackBody } from '../../revisions/schemas.ts';
import { SaveResult } from '../schemas.ts';
import { rollback } from '../service.ts';

export function rollbackRoute(app: FastifyInstance, ctx: AppContext): void {
  const { db, config } = ctx;
  const proof = proofCheck(ctx);
  app.post<{ Body: Static<typeof RollbackBody> }>(
    '/api/properties/rollback',
    {
      config: { auth: 'required', access: 'organization', rateLimit: saveLimits(config) },
      schema: {
        summary: 'Roll a property entry back to an earlier revision',
        description: 'Adds a revision with the earlier content, marked is_rollback with rolled_back_to.',
        tags: ['Property Resolution'],
        security: [{ bearer: [] }],
        body: RollbackBody,
        response: { 200: SaveResult, ...errorResponses(400, 401, 403, 404, 409, 415, 429) },
      },
    },
    async (request) => {
      const domain = normalizeDomain(request.body.domain, { in: 'body' });
      const row = await rollback(db, domain, request.body.to_revision, request.principal!, proof);
      return {
        success: true,
        message: `Property entry for ${domain} rolled back to revision ${request.body.to_revision} as revision ${row.revision}.`,
        id: row.id,
        revision_number: row.revision,
      };
    },
  );
}
