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
    '/api/properties/save',
    {
      config: { auth: 'required', access: 'organization', rateLimit: saveLimits(config) },
      schema: {
        summary: 'Save a community property entry',
        description: 'Creates the entry or adds a revision to it. Entries managed by the publisher’s own adagents.json answer 409.',
        tags: ['Property Resolution'],
        security: [{ bearer: [] }],
        body: SaveBody,
        response: { 200: SaveResult, 201: SaveResult, ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const domain = normalizeDomain(request.body.publisher_domain, { field: 'publisher_domain', in: 'body' });
      const { authorized_agents, properties = [], contact } = request.body;
      const { row, created } = await saveCommunity(db, domain, { authorized_agents, inventory: properties, contact: contact ?? null }, request.principal!);
      return reply.code(created ? 201 : 200).send({
        success: true,
        message: created ? `Property entry for ${domain} created.` : `Property entry for ${domain} updated to revision ${row.revision}.`,
        id: row.id,
        ...(created ? {} : { revision_number: row.revision }),
      });
    },
  );
}
