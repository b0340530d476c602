import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { DomainQuery } from '../schemas.ts';
import { resolveMany, toEntry } from '../service.ts';

export function resolveRoute(app: FastifyInstance, { db }: AppContext): void {
  app.get<{ Querystring: Static<typeof DomainQuery> }>(
    '/api/properties/resolve',
    {
      schema: {
        summary: 'Resolve a publisher domain',
        description: 'The property entry of a publisher domain: the agents it authorizes and the inventory it declares.',
        tags: ['Property Resolution'],
        querystring: DomainQuery,
        response: { 200: { $ref: 'PropertyEntry#' }, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const domain = normalizeDomain(request.query.domain);
      const row = (await resolveMany(db, [domain])).get(domain);
      if (!row) throw new ApError('not_found', `No property entry is registered for ${domain}.`);
      return toEntry(row);
    },
  );
}
