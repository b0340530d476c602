import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { saveLimits } from '../../limits.ts';
import { SaveBody, SaveResult } from '../schemas.ts';
import { saveCommunity } from '../service.ts';

export function saveRoute(app: FastifyInstance, { db, config }: AppContext): void {
  app.post<{ Body: Static<typeof SaveBody> }>(
    '/api/brands/save',
    {
      config: { auth: 'required', access: 'organization', rateLimit: saveLimits(config) },
      schema: {
        summary: 'Save a community brand',
        description: 'Creates the brand or adds a revision to it. Brands managed by their own brand.json answer 409.',
        tags: ['Brand Resolution'],
        security: [{ bearer: [] }],
        body: SaveBody,
        response: { 200: SaveResult, 201: SaveResult, ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const domain = normalizeDomain(request.body.domain, { in: 'body' });
      const { row, created } = await saveCommunity(db, { domain, brand_name: request.body.brand_name, manifest: request.body.brand_manifest ?? {} }, request.principal!);
      return reply.code(created ? 201 : 200).send({
        success: true,
        message: created ? `Brand ${domain} created.` : `Brand ${domain} updated to revision ${row.revision}.`,
        domain,
        id: row.id,
        ...(created ? {} : { revision_number: row.revision }),
      });
    },
  );
}
