import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { storedOrFetched } from '../../documents/well-known.ts';
import { BrandJsonDocument, DomainQuery } from '../schemas.ts';

export function brandJsonRoute(app: FastifyInstance, { db, fetcher }: AppContext): void {
  app.get<{ Querystring: Static<typeof DomainQuery> }>(
    '/api/brands/brand-json',
    {
      schema: {
        summary: 'The raw brand.json of a domain',
        description: 'The brand.json last fetched for the domain; fetched live (and kept) when the registry has none.',
        tags: ['Brand Resolution'],
        querystring: DomainQuery,
        response: { 200: BrandJsonDocument, ...errorResponses(400, 404, 502) },
      },
    },
    async (request) => {
      const domain = normalizeDomain(request.query.domain);
      const doc = await storedOrFetched(db, fetcher, domain, 'brand_json');
      return {
        domain,
        url: doc.url,
        fetched_at: doc.fetched_at.toISOString(),
        data: doc.document,
        brand_json: doc.document,
      };
    },
  );
}
