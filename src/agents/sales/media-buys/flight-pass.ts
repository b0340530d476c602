import type { TenantPass } from '../../runtime/index.ts';
import * as sql from './sql.ts';
import { canMove, type MediaBuyStatus } from './state.ts';

/** The seller, as history names it when the flight, not a caller, moved a buy. */
const seller = 'seller';
const batch = 200;

/**
 * Moves buys along their flight as time passes, as the seller's ad server would: a buy waiting for
 * its start goes active when the start comes; any buy not finished is completed once its end has
 * passed (a paused one too). Each move is a revision with its history entry, made under the
 * buy's row lock, so it never races a buyer's update: whichever comes second sees the other's.
 */
export function flightPass(intervalMs = 60_000): TenantPass {
  return {
    name: 'flight',
    intervalMs,
    async run({ db, clock }) {
      for (;;) {
        const due = await sql.buysAtFlightBoundary(db, clock.now(), batch);
        for (const { owner, media_buy_id } of due) {
          await db.transaction(async (tx) => {
            const buy = await sql.lockBuy(tx, owner, media_buy_id);
            const now = clock.now();
            const next = buy && nextStatus(buy.status, { start: buy.start_time, end: buy.end_time }, now);
            if (!buy || !next) return;
            buy.status = next;
            buy.revision += 1;
            buy.updated_at = now;
            await sql.updateBuy(tx, buy);
            const summary =
              next === 'completed'
                ? `Flight ended ${buy.end_time.toISOString()}.`
                : `Flight started ${buy.start_time.toISOString()}.`;
            await sql.recordHistory(tx, media_buy_id, [
              {
                revision: buy.revision,
                action: next === 'completed' ? 'completed' : 'started',
                summary,
                status: next,
                actor: seller,
                at: now,
              },
            ]);
          });
        }
        if (due.length < batch) return;
      }
    },
  };
}

/** Where the flight takes a buy at `now` (its end completes it, its start starts it), as the state machine allows; undefined when it stays as it is. */
export function nextStatus(
  status: MediaBuyStatus,
  flight: { start: Date; end: Date },
  now: Date,
): MediaBuyStatus | undefined {
  const due: MediaBuyStatus | undefined = now >= flight.end ? 'completed' : now >= flight.start ? 'active' : undefined;
  return due && canMove(status, due, 'flight') ? due : undefined;
}
