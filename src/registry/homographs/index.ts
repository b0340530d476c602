import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { decideReviewRoute } from './routes/decide-review.ts';
import { listReviewsRoute } from './routes/list-reviews.ts';
import { HomographReview } from './schemas.ts';
import type { ReviewAppliers } from './service.ts';

/**
 * Look-alike (homograph) screening of saves and the review queue of held saves.
 *
 * For the integrator: the save routes call `holdIfAmbiguous` (or `checkHomograph` and
 * `holdForReview`) before saving and answer 202 `HeldForReview` when it holds the save; every save
 * calls `recordSkeleton(s)` in its transaction; start-up runs `backfillSkeletons` after migrating;
 * `registerHomographReviews` adds the admin routes, with one applier per kind that re-applies an
 * approved save through `tx`.
 */
export function registerHomographReviews(app: FastifyInstance, ctx: Pick<AppContext, 'db'>, appliers: ReviewAppliers): void {
  app.addSchema(HomographReview);
  listReviewsRoute(app, ctx.db);
  decideReviewRoute(app, ctx.db, appliers);
}

export { checkHomograph, type HomographVerdict } from './check.ts';
export { emptyDenyList, matchDenyList, parseDenyList, readDenyList, DenyListError, type DeniedBrand, type DenyList } from './deny-list.ts';
export { HeldForReview } from './schemas.ts';
export {
  backfillSkeletons,
  decideReview,
  heldForReview,
  holdForReview,
  holdIfAmbiguous,
  listReviews,
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
export type { ReviewKind, ReviewReason, ReviewStatus } from './sql.ts';
