import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import type { EnrichmentProvider } from '../enrichment/provider.ts';
import { DomainQuery, Enrichment } from '../schemas.ts';
import { saveEnriched } from '../service.ts';

export function enrichRoute(app: FastifyInstance, { db, config }: AppContext, provider: EnrichmentProvider): void {
  app.get<{ Querystring: Static<typeof DomainQuery> }>(
    '/api/brands/enrich',
    {
      config: { rateLimit: [{ name: 'enrich', max: config.limits.enrichPerMinutePerIp, windowSeconds: 60, by: 'ip' }] },
      schema: {
        summary: 'Enrich a brand from a brand-data provider',
        description:
          'Asks the configured brand-data provider about the domain (when `BRAND_DATA_PROVIDER_URL` is set; a domain it does not know falls back to the domain’s own brand.json or home page, which is the only source otherwise) and stores the result as an `enriched` revision by `system`, unless the domain already has a community or authoritative entry. `provider` names the source that answered. 502 `brand_data_provider_failed` when the provider fails (nothing is stored); 400 `domain_not_public` for a domain resolving to a private address, which is never fetched. Rate-limited per IP.',
        tags: ['Brand Resolution'],
        querystring: DomainQuery,
        response: { 200: Enrichment, ...errorResponses(400, 404, 502) },
      },
    },
    async (request) => {
      const domain = normalizeDomain(request.query.domain);
      const found = await provider.enrich(domain);
      if (!found) throw new ApError('not_found', `${provider.name} found no brand data for ${domain}.`);
      const stored = await saveEnriched(db, {
        domain,
        brand_name: found.brand_name,
        manifest: found.manifest,
        provider: found.provider,
      });
      return {
        domain,
        brand_name: found.brand_name,
        brand_manifest: found.manifest,
        provider: found.provider,
        source: 'enriched' as const,
        stored: stored !== undefined,
        ...(stored ? { revision_number: stored.revision } : {}),
      };
    },
  );
}
