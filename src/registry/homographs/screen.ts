import type { AppContext } from '../../context.ts';
import { requireProof } from '../ownership/index.ts';
import { brandDenyListOf } from './deny-list.ts';
import { holdIfAmbiguous, queueSubmission, type HeldForReviewBody, type Review, type Submission } from './service.ts';

/**
 * What a save route asks before saving: undefined to go ahead, or the 202 body of a save held
 * for review because the domain looks like a deny-listed brand or a registered entry. Only a
 * proven organization can fill the queue, so the proof is asked for before holding.
 */
export function screenSave(
  ctx: Pick<AppContext, 'db' | 'config' | 'clock'>,
  submission: Submission,
): Promise<HeldForReviewBody | undefined> {
  return holdIfAmbiguous(ctx.db, brandDenyListOf(ctx.config), submission, () =>
    requireProof(ctx.db, ctx, submission.principal, submission.domain),
  );
}

/**
 * The legacy community submission: always queued for an administrator, never applied at once. As
 * with held saves, only an organization that proved the domain can fill the queue, and approval
 * saves as the submitter (who must still hold the proof then).
 */
export async function submitForReview(
  ctx: Pick<AppContext, 'db' | 'config' | 'clock'>,
  submission: Submission,
): Promise<Review> {
  await requireProof(ctx.db, ctx, submission.principal, submission.domain);
  return queueSubmission(ctx.db, brandDenyListOf(ctx.config), submission);
}
