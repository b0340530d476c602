import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { DomainQuery } from '../schemas.ts';
import { resolve, toResolution } from '../service.ts';

export function resolveRoute(app: FastifyInstance, { db }: AppContext): void {
  app.get<{ Querystring: Static<typeof DomainQuery> }>(
    '/api/brands/resolve',
    {
      schema: {
        summary: 'Resolve a brand domain',
        description: 'The canonical brand record for a domain; a domain its house declares resolves to that brand.',
        tags: ['Brand Resolution'],
        querystring: DomainQuery,
        response: { 200: { $ref: 'BrandResolution#' }, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const domain = normalizeDomain(request.query.domain);
      const row = await resolve(db, domain);
      if (!row) throw new ApError('not_found', `No brand is registered for ${domain}.`);
      return toResolution(row);
    },
  );
}
