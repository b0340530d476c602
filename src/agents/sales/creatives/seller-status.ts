import type { Queryable } from '../../../db/database.ts';
import type { CreativeStatus } from '../../creative-library/index.ts';
import type { CreativeRow } from './creative.ts';
import * as sql from './sql.ts';

/** The owner's creative in the account, locked until the transaction ends; undefined when it has none of that id. */
export function lockCreative(
  tx: Queryable,
  owner: string,
  accountId: string,
  creativeId: string,
): Promise<CreativeRow | undefined> {
  return sql.lockCreative(tx, owner, accountId, creativeId);
}

/**
 * The seller's own move of a creative (locked by `lockCreative`) to another status, such as a review's
 * outcome, recorded in its history with who made it, when and why (a rejection's reason). Which
 * moves are allowed is the caller's decision.
 */
export function setCreativeStatus(
  tx: Queryable,
  creative: CreativeRow,
  status: CreativeStatus,
  move: { reason?: string; by: string; at: Date },
): Promise<void> {
  return sql.setStatus(tx, creative.account_id, creative.creative_id, {
    status,
    reason: move.reason ?? null,
    changed_by: move.by,
    changed_at: move.at,
  });
}

/** A creative's history, oldest first: seeded or status changes the seller made, with who, when and why. */
export function creativeHistory(db: Queryable, accountId: string, creativeId: string): Promise<sql.CreativeChange[]> {
  return sql.changesOf(db, accountId, creativeId);
}
