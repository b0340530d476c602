import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { IndexSource } from '../lookups/index.ts';
import { createRoute } from './routes/create.ts';
import { manifestRefsLookupRoute } from './routes/manifest-refs-lookup.ts';
import { validatePublisherRoute } from './routes/validate-publisher.ts';
import { validateRoute } from './routes/validate.ts';

export { adagentsToolsLimits, type AdagentsToolsLimits } from './settings.ts';

export interface AdagentsToolsOptions {
  ctx: AppContext;
  /** The lookups' authorization index, which the publisher report reads. */
  index: IndexSource;
}

/**
 * The adagents.json tools (spec section 4, "Validation tools"): validating a domain's file or an
 * inline one (`POST /api/adagents/validate`), generating one (`POST /api/adagents/create`), where a
 * domain's manifests live (`GET /api/manifest-refs/lookup`) and a publisher's report
 * (`GET /api/public/validate-publisher`). Files are fetched live through `ctx.fetcher` and judged by
 * the one validator (registry/documents/adagents-validation); nothing is stored.
 */
export const adagentsToolsPlugin: FastifyPluginAsync<AdagentsToolsOptions> = async (app, { ctx, index }) => {
  validateRoute(app, ctx);
  createRoute(app, ctx);
  manifestRefsLookupRoute(app, ctx);
  validatePublisherRoute(app, ctx, index);
};
