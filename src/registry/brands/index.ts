import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import { heldSaveApplier, registerEntryRoutes, registerResolveRoutes, type Resolver } from '../entries/index.ts';
import type { ReviewApplier } from '../homographs/index.ts';
import { brandDataApiProvider } from './enrichment/brand-data-api.ts';
import { withFallback, type EnrichmentProvider } from './enrichment/provider.ts';
import { siteMetadataProvider } from './enrichment/site-metadata.ts';
import { brandKind } from './kind.ts';
import { brandJsonRoute } from './routes/brand-json.ts';
import { enrichRoute } from './routes/enrich.ts';
import { findRoute } from './routes/find.ts';
import { submitCommunityRoute } from './routes/submit-community.ts';
import { BrandEntry, BrandManifest, BrandResolution } from './schemas.ts';

export interface BrandsOptions {
  ctx: AppContext;
  /**
   * Where `/api/brands/enrich` asks about a domain. By default the configured brand-data API
   * (`BRAND_DATA_PROVIDER_URL`), falling back to the domain's own site metadata for domains it
   * does not know; the site metadata alone when none is configured.
   */
  enrichment?: EnrichmentProvider | undefined;
}

/** The brands' shared schemas, added app-wide: other capabilities' answers carry them too. */
export const brandSchemas = [BrandManifest, BrandResolution, BrandEntry];

/** Brand resolution, listing, search by name, enrichment, saves, history and rollback. */
export const brandsPlugin: FastifyPluginAsync<BrandsOptions> = async (
  app,
  { ctx, enrichment = defaultEnrichment(ctx) },
) => {
  registerEntryRoutes(app, ctx, brandKind);
  brandJsonRoute(app, ctx);
  enrichRoute(app, ctx, enrichment);
  findRoute(app, ctx.db);
  submitCommunityRoute(app, ctx);
};

function defaultEnrichment({ config, fetcher }: AppContext): EnrichmentProvider {
  const site = siteMetadataProvider(fetcher);
  return config.brandDataProvider ? withFallback(brandDataApiProvider(fetcher, config.brandDataProvider), site) : site;
}

/** Resolve and bulk resolve of brands alone, answered by `resolve` (a mirror answers from what the feed told it). */
export const brandResolvePlugin: FastifyPluginAsync<{ resolve: Resolver }> = async (app, { resolve }) => {
  registerResolveRoutes(app, brandKind, resolve);
};

/** Applies a held brand save an admin approved, as its submitter, still subject to the proof rule. */
export function applyHeldBrand(ctx: AppContext): ReviewApplier {
  return heldSaveApplier(ctx, brandKind);
}

export { brandResolutions } from './events.ts';
export { brandIdentity } from './identity.ts';
export { BrandRecordCache } from './record.ts';
export { saveAuthoritative, saveEnriched } from './service.ts';
export type { AuthoritativeBrand, BrandRow } from './sql.ts';
export type { EnrichmentProvider } from './enrichment/provider.ts';
export {
  brandsLimits,
  brandsSettings,
  type BrandDataProviderConfig,
  type BrandsLimits,
  type BrandsSettings,
} from './settings.ts';
