import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import type { EnrichmentProvider } from '../enrichment/provider.ts';
import { DomainQuery, Enrichment } from '../schemas.ts';
import { saveEnriched } from '../service.ts';

export function enrichRoute(app: FastifyInstance, { db }: AppContext, provider: EnrichmentProvider): void {
  app.get<{ Querystring: Static<typeof DomainQuery> }>(
    '/api/brands/enrich',
    {
      schema: {
        summary: 'Enrich a brand from a brand-data provider',
        description:
          'Asks the configured provider about the domain and stores the result as an `enriched` revision by `system`, unless the domain already has a community or authoritative entry.',
        tags: ['Brand Resolution'],
        querystring: DomainQuery,
        response: { 200: Enrichment, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const domain = normalizeDomain(request.query.domain);
      const found = await provider.enrich(domain);
      if (!found) throw new ApError('not_found', `${provider.name} found no brand data for ${domain}.`);
      const stored = await saveEnriched(db, { domain, brand_name: found.brand_name, manifest: found.manifest, provider: provider.name });
      return {
        domain,
        brand_name: found.brand_name,
        brand_manifest: found.manifest,
        provider: provider.name,
        source: 'enriched' as const,
        stored: stored !== undefined,
        ...(stored ? { revision_number: stored.revision } : {}),
      };
    },
  );
}
