/** enums/media-buy-status.json. */
export const mediaBuyStatuses = ['pending_creatives', 'pending_start', 'active', 'paused', 'completed', 'rejected', 'canceled'] as const;
export type MediaBuyStatus = (typeof mediaBuyStatuses)[number];

/** enums/media-buy-valid-action.json. */
export type ValidAction = 'pause' | 'resume' | 'cancel' | 'update_budget' | 'update_dates' | 'update_packages' | 'add_packages' | 'sync_creatives';

const terminal: ReadonlySet<MediaBuyStatus> = new Set(['completed', 'rejected', 'canceled']);

export const isTerminal = (status: MediaBuyStatus) => terminal.has(status);

const changes: ValidAction[] = ['cancel', 'update_budget', 'update_dates', 'update_packages', 'add_packages', 'sync_creatives'];

/**
 * The one place the state machine lives: what a buyer may do to a buy in each status. A buy not
 * yet serving (waiting for creatives or its start) may be held with pause as a running one may;
 * a paused one resumes; a finished one (completed, rejected, canceled) takes nothing more.
 */
export function validActions(status: MediaBuyStatus): ValidAction[] {
  switch (status) {
    case 'pending_creatives':
    case 'pending_start':
    case 'active':
      return ['pause', ...changes];
    case 'paused':
      return ['resume', ...changes];
    case 'completed':
    case 'rejected':
    case 'canceled':
      return [];
  }
}

/** What the buy facts make of a buy that is not paused nor finished: no creative yet, not started, or running. */
export function runningStatus(buy: { creatives: number; start: Date }, now: Date): MediaBuyStatus {
  if (buy.creatives === 0) return 'pending_creatives';
  return now < buy.start ? 'pending_start' : 'active';
}

/**
 * A buy's status once the creatives of its packages changed: one waiting for creatives moves on
 * when it has some (by its flight), a running one with none left waits for them again (the
 * status means no creative is assigned); paused and finished buys keep theirs.
 */
export function statusWithCreatives(status: MediaBuyStatus, hasCreatives: boolean, start: Date, now: Date): MediaBuyStatus {
  if (status === 'pending_creatives' && hasCreatives) return runningStatus({ creatives: 1, start }, now);
  if ((status === 'pending_start' || status === 'active') && !hasCreatives) return 'pending_creatives';
  return status;
}
