import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import { heldSaveApplier, registerEntryRoutes } from '../entries/index.ts';
import type { ReviewApplier } from '../homographs/index.ts';
import type { EnrichmentProvider } from './enrichment/provider.ts';
import { siteMetadataProvider } from './enrichment/site-metadata.ts';
import { brandKind } from './kind.ts';
import { brandJsonRoute } from './routes/brand-json.ts';
import { enrichRoute } from './routes/enrich.ts';
import { submitCommunityRoute } from './routes/submit-community.ts';
import { BrandEntry, BrandManifest, BrandResolution } from './schemas.ts';

export interface BrandsOptions {
  ctx: AppContext;
  /** Where `/api/brands/enrich` asks about a domain; the domain's own site metadata by default. */
  enrichment?: EnrichmentProvider | undefined;
}

/** Brand resolution, listing, enrichment, saves, history and rollback. */
export const brandsPlugin = fp<BrandsOptions>(
  async (app, { ctx, enrichment = siteMetadataProvider(ctx.fetcher) }) => {
    app.addSchema(BrandManifest);
    app.addSchema(BrandResolution);
    app.addSchema(BrandEntry);
    registerEntryRoutes(app, ctx, brandKind);
    brandJsonRoute(app, ctx);
    enrichRoute(app, ctx, enrichment);
    submitCommunityRoute(app, ctx);
  },
  { name: 'brands' },
);

/** Applies a held brand save an admin approved, as its submitter, still subject to the proof rule. */
export function applyHeldBrand(ctx: AppContext): ReviewApplier {
  return heldSaveApplier(ctx, brandKind);
}

export { saveAuthoritative, saveEnriched } from './service.ts';
export type { AuthoritativeBrand, BrandRow } from './sql.ts';
export type { EnrichmentProvider } from './enrichment/provider.ts';
