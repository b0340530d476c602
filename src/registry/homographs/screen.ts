import type { AppContext } from '../../context.ts';
import { requireProof } from '../ownership/service.ts';
import { checkHomograph } from './check.ts';
import { heldForReview, holdForReview, type HeldForReviewBody, type Submission } from './service.ts';

/**
 * What a save route asks before saving: undefined to go ahead, or the 202 body of a save held
 * for review because the domain looks like a deny-listed brand or a registered entry. Only a
 * proven organization can fill the queue, so the proof is asked for before holding.
 */
export async function screenSave(ctx: Pick<AppContext, 'db' | 'config' | 'clock'>, submission: Submission): Promise<HeldForReviewBody | undefined> {
  const verdict = await checkHomograph(ctx.db, ctx.config.brandDenyList, submission.domain);
  if (verdict.verdict === 'ok') return undefined;
  await requireProof(ctx.db, ctx, submission.principal, submission.domain);
  return heldForReview(await holdForReview(ctx.db, { ...submission, reason: verdict.reason, similar_to: verdict.similar_to }));
}
