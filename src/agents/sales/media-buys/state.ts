/** enums/media-buy-status.json. */
export const mediaBuyStatuses = [
  'pending_creatives',
  'pending_start',
  'active',
  'paused',
  'completed',
  'rejected',
  'canceled',
] as const;
export type MediaBuyStatus = (typeof mediaBuyStatuses)[number];

/** enums/media-buy-valid-action.json, in its order (valid_actions are answered in it). */
const actionOrder = [
  'pause',
  'resume',
  'cancel',
  'update_budget',
  'update_dates',
  'update_packages',
  'add_packages',
  'sync_creatives',
] as const;
export type ValidAction = (typeof actionOrder)[number];

/** What moves a buy: the buyer's update, the seller (or its test controller), its flight's clock, its first creative. */
export type Mover = 'buyer' | 'seller' | 'flight' | 'creatives' | 'governance';

/** One edge of the state machine: from any of `from` to `to`, by whom, and the buyer action it is when it is one. */
export interface Move {
  from: readonly MediaBuyStatus[];
  to: MediaBuyStatus;
  by: Mover;
  action?: Extract<ValidAction, 'pause' | 'resume' | 'cancel'>;
}

const notFinished: readonly MediaBuyStatus[] = ['pending_creatives', 'pending_start', 'active', 'paused'];

/**
 * The media buy state machine, written once: every move a buy makes, whoever makes it. What a
 * buyer may do (valid_actions), what update_media_buy applies, what the flight pass moves and
 * which moves the test controller may force are all read from it. The published lifecycle
 * (media-buy specification, "Media Buy State Transitions") with this seller's two readings:
 *  - pause holds a buy not yet serving too (pending_creatives, pending_start), and resume returns
 *    any paused buy to where its flight has it: pending_start before the start, else active (a
 *    buy without creatives then reports them missing on its packages; it never goes back to
 *    pending_creatives, a status only creation gives);
 *  - the flight's end completes every buy not finished, not only active and paused ones: a buy
 *    that never got creatives or never started is over when its flight is.
 * Rejection is only from pending_creatives or pending_start; completed, rejected and canceled
 * are terminal (no move leaves them). A buy whose delivery the buyer's governance agent denies is
 * paused by the seller at once (governance/campaign: "the seller pauses delivery immediately").
 */
export const moves: readonly Move[] = [
  { from: ['pending_creatives'], to: 'pending_start', by: 'creatives' },
  { from: ['pending_creatives'], to: 'active', by: 'creatives' },
  { from: ['pending_start'], to: 'active', by: 'flight' },
  { from: ['pending_creatives', 'pending_start', 'active'], to: 'paused', by: 'buyer', action: 'pause' },
  { from: ['paused'], to: 'pending_start', by: 'buyer', action: 'resume' },
  { from: ['paused'], to: 'active', by: 'buyer', action: 'resume' },
  { from: notFinished, to: 'completed', by: 'flight' },
  { from: ['pending_creatives', 'pending_start'], to: 'rejected', by: 'seller' },
  { from: ['pending_creatives', 'pending_start', 'active'], to: 'paused', by: 'governance' },
  { from: notFinished, to: 'canceled', by: 'buyer', action: 'cancel' },
];

/** Buyer changes that move no status: allowed in every status a move leaves. */
const changes: readonly ValidAction[] = [
  'update_budget',
  'update_dates',
  'update_packages',
  'add_packages',
  'sync_creatives',
];

/** Completed, rejected and canceled: no move leaves them. */
export const isTerminal = (status: MediaBuyStatus) => !moves.some((m) => m.from.includes(status));

/** Whether the state machine has a move from `from` to `to`, by `by` (by anyone when absent). */
export const canMove = (from: MediaBuyStatus, to: MediaBuyStatus, by?: Mover) =>
  moves.some((m) => m.to === to && m.from.includes(from) && (by === undefined || m.by === by));

/** The statuses a buy may move to from `status`, in the enum's order. */
export const nextStatuses = (status: MediaBuyStatus): MediaBuyStatus[] =>
  mediaBuyStatuses.filter((to) => canMove(status, to));

/** What a buyer may do to a buy in `status`: the buyer's moves out of it, and the changes when it is not finished. */
export function validActions(status: MediaBuyStatus): ValidAction[] {
  const allowed = new Set<ValidAction>([
    ...moves.filter((m) => m.action && m.from.includes(status)).map((m) => m.action!),
    ...(isTerminal(status) ? [] : changes),
  ]);
  return actionOrder.filter((a) => allowed.has(a));
}

/** A new buy's status: waiting for creatives when it has none, else by its flight. */
export function runningStatus(buy: { creatives: number; start: Date }, now: Date): MediaBuyStatus {
  if (buy.creatives === 0) return 'pending_creatives';
  return byFlight(buy.start, now);
}

/** Where resume takes a paused buy: its flight's status, creatives or not. */
export const resumedStatus = (start: Date, now: Date): MediaBuyStatus => byFlight(start, now);

const byFlight = (start: Date, now: Date): MediaBuyStatus => (now < start ? 'pending_start' : 'active');

/**
 * A buy's status once the creatives of its packages changed: one waiting for creatives moves on
 * by its flight when it has some; every other keeps its status (taking creatives off a running
 * buy is no move of the lifecycle: its packages report them missing).
 */
export function statusWithCreatives(
  status: MediaBuyStatus,
  hasCreatives: boolean,
  start: Date,
  now: Date,
): MediaBuyStatus {
  const to = byFlight(start, now);
  return hasCreatives && canMove(status, to, 'creatives') ? to : status;
}
