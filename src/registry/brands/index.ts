import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import type { EnrichmentProvider } from './enrichment/provider.ts';
import { siteMetadataProvider } from './enrichment/site-metadata.ts';
import { brandJsonRoute } from './routes/brand-json.ts';
import { enrichRoute } from './routes/enrich.ts';
import { brandHistoryRoute } from './routes/history.ts';
import { registryRoute } from './routes/registry.ts';
import { resolveBulkRoute } from './routes/resolve-bulk.ts';
import { resolveRoute } from './routes/resolve.ts';
import { rollbackRoute } from './routes/rollback.ts';
import { saveRoute } from './routes/save.ts';
import { BrandEntry, BrandManifest, BrandResolution } from './schemas.ts';

/** Brand resolution, listing, enrichment, saves, history and rollback. */
export function registerBrands(app: FastifyInstance, ctx: AppContext, provider: EnrichmentProvider = siteMetadataProvider(ctx.fetcher)): void {
  app.addSchema(BrandManifest);
  app.addSchema(BrandResolution);
  app.addSchema(BrandEntry);
  resolveRoute(app, ctx);
  resolveBulkRoute(app, ctx);
  brandJsonRoute(app, ctx);
  registryRoute(app, ctx);
  enrichRoute(app, ctx, provider);
  saveRoute(app, ctx);
  brandHistoryRoute(app, ctx);
  rollbackRoute(app, ctx);
}

export const brandsPlugin = fp<{ ctx: AppContext; enrichment?: EnrichmentProvider }>(async (app, { ctx, enrichment }) => registerBrands(app, ctx, enrichment), { name: 'brands' });
export { applyHeldBrand } from './routes/save.ts';
export { saveAuthoritative } from './service.ts';
export type { AuthoritativeBrand } from './sql.ts';
export type { EnrichmentProvider } from './enrichment/provider.ts';
