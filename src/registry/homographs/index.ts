import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import { loadBrandDenyList } from './deny-list.ts';
import { decideReviewRoute } from './routes/decide-review.ts';
import { listReviewsRoute } from './routes/list-reviews.ts';
import { HomographReview } from './schemas.ts';
import type { ReviewAppliers } from './service.ts';

/**
 * Look-alike (homograph) screening of saves and the review queue of held saves, which also takes
 * the legacy community submissions (`submitForReview`: always queued, never applied at once).
 *
 * For the integrator: the save routes call `screenSave` (or `holdIfAmbiguous`, or `checkHomograph`
 * and `holdForReview`) before saving and answer 202 `HeldForReview` when it holds the save; every
 * save calls `recordSkeleton(s)` in its transaction; `ap serve` runs `backfillSkeletons` once at
 * start, in the background. The plugin reads the operator's deny list (`AP_BRAND_DENY_LIST`; a bad file stops the
 * start) and adds the admin routes, with one applier per kind that re-applies an approved save
 * through `tx`.
 */
export const homographsPlugin: FastifyPluginAsync<HomographsOptions> = async (app, { ctx, appliers }) => {
  loadBrandDenyList(ctx.config);
  listReviewsRoute(app, ctx.db);
  decideReviewRoute(app, ctx.db, appliers);
};

/** The review queue's shared schema, added app-wide. */
export const homographSchemas = [HomographReview];

export interface HomographsOptions {
  ctx: Pick<AppContext, 'db' | 'config'>;
  appliers: ReviewAppliers;
}

export { checkHomograph, type HomographVerdict } from './check.ts';
export {
  brandDenyListOf,
  emptyDenyList,
  loadBrandDenyList,
  matchDenyList,
  parseDenyList,
  readDenyList,
  DenyListError,
  type DeniedBrand,
  type DenyList,
} from './deny-list.ts';
export { HeldForReview, Reason as LookalikeReason, SimilarTo as LookalikeOf } from './schemas.ts';
export { screenSave, submitForReview } from './screen.ts';
export {
  backfillSkeletons,
  decideReview,
  heldForReview,
  holdForReview,
  holdIfAmbiguous,
  listReviews,
  queueSubmission,
  recordSkeleton,
  recordSkeletons,
  type HeldForReviewBody,
  type HeldSave,
  type HoldInput,
  type Review,
  type ReviewApplier,
  type ReviewAppliers,
  type Submission,
} from './service.ts';
export { domainSkeleton, labelSkeleton, registrableLabel, textSkeleton } from './skeleton.ts';
export type { ReviewKind, ReviewReason, ReviewSource, ReviewStatus } from './sql.ts';
export { homographsSettings, type HomographsSettings } from './settings.ts';
