import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/index.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { ApError } from '../../protocol/errors.ts';
import { checkHomograph } from './check.ts';
import type { DenyList } from './deny-list.ts';
import { domainSkeleton, skeletonVersion } from './skeleton.ts';
import * as sql from './sql.ts';
import type { ReviewKind, ReviewReason, ReviewRow, ReviewSource, ReviewStatus } from './sql.ts';

/**
 * Records the skeleton of a registered domain. Saves call it inside their transaction for every
 * domain they create or keep (a brand's domain, each alias a brand.json declares, a property's
 * publisher domain), so the look-alike lookup always sees committed entries.
 */
export async function recordSkeleton(tx: Queryable, domain: string): Promise<void> {
  await recordSkeletons(tx, [domain]);
}

export async function recordSkeletons(tx: Queryable, domains: readonly string[]): Promise<void> {
  await sql.upsertSkeletons(
    tx,
    [...new Set(domains)].map((domain) => ({ domain, skeleton: domainSkeleton(domain) })),
    skeletonVersion(),
  );
}

export interface BackfillResult {
  /** Skeletons written (missing, or computed from other confusables data). */
  written: number;
  /** Rows of domains no longer registered, removed. */
  removed: number;
}

/**
 * Fills `domain_skeletons` for every registered domain that has no skeleton of the running
 * version: entries saved before migration 0008, or before an upgrade of the confusables data.
 * Idempotent and cheap when nothing is missing (one anti-join); safe to run on every start and
 * from several instances at once. Works in batches, each its own statement.
 */
export async function backfillSkeletons(db: Database, batchSize = 500): Promise<BackfillResult> {
  const version = skeletonVersion();
  let written = 0;
  for (;;) {
    const domains = await sql.domainsWithoutSkeleton(db, version, batchSize);
    if (domains.length === 0) break;
    await sql.upsertSkeletons(
      db,
      domains.map((domain) => ({ domain, skeleton: domainSkeleton(domain) })),
      version,
    );
    written += domains.length;
    if (domains.length < batchSize) break;
  }
  return { written, removed: await sql.deleteOrphanSkeletons(db) };
}

export interface Submission {
  kind: ReviewKind;
  /** Normalized (ASCII) domain the save is for. */
  domain: string;
  /** The save's request body, as sent; an approval applies it. */
  payload: Record<string, unknown>;
  /** Who sent the save; an approval applies it on their behalf. */
  principal: Principal;
}

export interface HoldInput extends Submission {
  reason: ReviewReason;
  similar_to: string;
}

/** Puts a save in the review queue instead of applying it. */
export async function holdForReview(tx: Queryable, input: HoldInput): Promise<Review> {
  return queue(tx, input, 'save', { reason: input.reason, similar_to: input.similar_to });
}

/**
 * Queues a submission that always waits for an administrator (the legacy community submission),
 * whatever its domain looks like; a look-alike is queued with its reason, so the administrator
 * sees it. Approval applies it through the kind's applier, as a held save.
 */
export async function queueSubmission(db: Queryable, denyList: DenyList, submission: Submission): Promise<Review> {
  const verdict = await checkHomograph(db, denyList, submission.domain);
  const lookalike =
    verdict.verdict === 'review'
      ? { reason: verdict.reason, similar_to: verdict.similar_to }
      : { reason: null, similar_to: null };
  return queue(db, submission, 'community_submission', lookalike);
}

async function queue(
  tx: Queryable,
  submission: Submission,
  source: ReviewSource,
  lookalike: Pick<ReviewRow, 'reason' | 'similar_to'>,
): Promise<Review> {
  const row = await sql.insertReview(tx, {
    id: randomUUID(),
    kind: submission.kind,
    domain: submission.domain,
    payload: submission.payload,
    organization_id: submission.principal.organization?.organizationId ?? null,
    submitted_by: submission.principal.displayName,
    submitter: { ...submission.principal },
    source,
    ...lookalike,
  });
  return toReview(row);
}

/** The 202 body of a save held for review (schema: `HeldForReview`). */
export interface HeldForReviewBody {
  status: 'held_for_review';
  review_id: string;
  domain: string;
  reason: ReviewReason;
  similar_to: string;
  message: string;
}

export function heldForReview(
  review: Pick<Review, 'id' | 'domain'> & Pick<HoldInput, 'reason' | 'similar_to'>,
): HeldForReviewBody {
  const what =
    review.reason === 'deny_list'
      ? `the protected brand "${review.similar_to}"`
      : `the registered domain ${review.similar_to}`;
  return {
    status: 'held_for_review',
    review_id: review.id,
    domain: review.domain,
    reason: review.reason,
    similar_to: review.similar_to,
    message: `${review.domain} looks like ${what}; the save is held until a registry administrator decides on it.`,
  };
}

/**
 * The save routes' one call: checks the domain and, when it is ambiguous, holds the save and
 * returns the 202 body to answer with; undefined means go ahead and save.
 */
export async function holdIfAmbiguous(
  db: Queryable,
  denyList: DenyList,
  submission: Submission,
  /** Runs before a save is held, and may refuse it (the save routes ask for the ownership proof here). */
  beforeHold?: () => Promise<void>,
): Promise<HeldForReviewBody | undefined> {
  const verdict = await checkHomograph(db, denyList, submission.domain);
  if (verdict.verdict === 'ok') return undefined;
  await beforeHold?.();
  const review = await holdForReview(db, { ...submission, reason: verdict.reason, similar_to: verdict.similar_to });
  return heldForReview({ ...review, reason: verdict.reason, similar_to: verdict.similar_to });
}

/** A review as the admin API shows it: its row, times as ISO strings, without who submitted it. */
export type Review = Omit<ReviewRow, 'submitter' | 'decided_at' | 'created_at'> & {
  decided_at: string | null;
  created_at: string;
};

function toReview({ submitter: _submitter, ...row }: ReviewRow): Review {
  return { ...row, decided_at: row.decided_at?.toISOString() ?? null, created_at: row.created_at.toISOString() };
}

export async function listReviews(
  db: Queryable,
  filter: { status: ReviewStatus; limit: number; offset: number },
): Promise<{ reviews: Review[]; total: number }> {
  const { rows, total } = await sql.listReviews(db, filter);
  return { reviews: rows.map(toReview), total };
}

/** A held save as an applier receives it. */
export interface HeldSave {
  review_id: string;
  kind: ReviewKind;
  domain: string;
  /** The save's request body, as it was sent. */
  payload: Record<string, unknown>;
  organization_id: string | null;
  /** Who sent the save, as the guard saw them then: the editor of the applied revision. */
  submitter: Principal;
}

/**
 * Applies an approved save. It runs inside the decision's transaction and must do all its work
 * through `tx` (on PGlite, opening another transaction on the database waits forever). The review
 * is already marked approved in `tx`, so `checkHomograph` lets the domain through; throwing (for
 * example `authoritative_entry`) rolls the decision back and the review stays pending.
 */
export type ReviewApplier = (tx: Queryable, held: HeldSave, decider: Principal) => Promise<unknown>;

/** One applier per kind of held save. */
export type ReviewAppliers = Readonly<Record<ReviewKind, ReviewApplier>>;

export type Decision = 'approve' | 'reject';

/** Approves (applying the held save) or rejects a pending review, in one transaction; 404 unknown, 409 decided. */
export async function decideReview(
  db: Database,
  appliers: ReviewAppliers,
  id: string,
  decision: { decision: Decision; note?: string | undefined },
  decider: Principal,
): Promise<Review> {
  return db.transaction(async (tx) => {
    const review = await sql.lockReview(tx, id);
    if (!review) throw new ApError('not_found', `No review ${id}.`);
    if (review.status !== 'pending') {
      throw new ApError(
        'conflict',
        `Review ${id} was already ${review.status} by ${review.decided_by} at ${review.decided_at?.toISOString()}.`,
      );
    }
    const row = await sql.recordDecision(
      tx,
      id,
      decision.decision === 'approve' ? 'approved' : 'rejected',
      decider.displayName,
      decision.note ?? null,
    );
    if (decision.decision === 'approve') {
      await appliers[review.kind](
        tx,
        {
          review_id: review.id,
          kind: review.kind,
          domain: review.domain,
          payload: review.payload,
          organization_id: review.organization_id,
          submitter: review.submitter as unknown as Principal,
        },
        decider,
      );
    }
    return toReview(row);
  });
}
