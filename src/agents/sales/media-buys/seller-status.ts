import type { Queryable } from '../../../db/database.ts';
import type { BuyRow } from './media-buy.ts';
import * as sql from './sql.ts';
import type { MediaBuyStatus } from './state.ts';

/** The owner's buy, locked until the transaction ends (as an update locks it); undefined when it has none of that id. */
export function lockMediaBuy(tx: Queryable, owner: string, mediaBuyId: string): Promise<BuyRow | undefined> {
  return sql.lockBuy(tx, owner, mediaBuyId);
}

/** History actions get-media-buys-response.json names for a move to these statuses; other moves are `status_changed`. */
const actions: Partial<Record<MediaBuyStatus, string>> = {
  active: 'activated',
  paused: 'paused',
  canceled: 'canceled',
  rejected: 'rejected',
  completed: 'completed',
};

export interface SellerMove {
  /** Why, when the seller says (a rejection's reason). */
  reason?: string;
  actor: string;
  now: Date;
}

/**
 * The seller's own move of a buy (locked by `lockMediaBuy`) to another status, as one change: the
 * revision bumps by one and the history records it with its actor. A cancellation is the seller's;
 * a rejection's reason is answered as the buy's `rejection_reason`. Which moves are allowed is the
 * caller's decision. Answers the buy as it now is.
 */
export async function setMediaBuyStatus(
  tx: Queryable,
  buy: BuyRow,
  status: MediaBuyStatus,
  { reason, actor, now }: SellerMove,
): Promise<BuyRow> {
  const after: BuyRow = {
    ...buy,
    status,
    revision: buy.revision + 1,
    updated_at: now,
    cancellation: status === 'canceled' ? { canceled_at: now.toISOString(), canceled_by: 'seller' } : buy.cancellation,
    details: status === 'rejected' && reason !== undefined ? { ...buy.details, rejection_reason: reason } : buy.details,
  };
  await sql.updateBuy(tx, after);
  const why = status === 'rejected' && reason !== undefined ? `: ${reason}` : '.';
  await sql.recordHistory(tx, buy.media_buy_id, [
    {
      revision: after.revision,
      action: actions[status] ?? 'status_changed',
      summary: `Moved from ${buy.status} to ${status} by the seller${why}`.slice(0, 500),
      status,
      actor,
      at: now,
    },
  ]);
  return after;
}
