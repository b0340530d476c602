import type { AppContext } from '../../context.ts';
import { requireProof } from '../ownership/index.ts';
import { brandDenyListOf } from './deny-list.ts';
import { holdIfAmbiguous, type HeldForReviewBody, type Submission } from './service.ts';

/**
 * What a save route asks before saving: undefined to go ahead, or the 202 body of a save held
 * for review because the domain looks like a deny-listed brand or a registered entry. Only a
 * proven organization can fill the queue, so the proof is asked for before holding.
 */
export function screenSave(ctx: Pick<AppContext, 'db' | 'config' | 'clock'>, submission: Submission): Promise<HeldForReviewBody | undefined> {
  return holdIfAmbiguous(ctx.db, brandDenyListOf(ctx.config), submission, () => requireProof(ctx.db, ctx, submission.principal, submission.domain));
}
