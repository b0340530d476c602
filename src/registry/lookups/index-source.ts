import { Conditions } from '../../jobs/conditions.ts';
import type { AuthorizationIndex } from './authorization-index.ts';

/**
 * Where the lookups read the authorization index from, and where it stands in the change feed:
 * this registry's own feed (IndexSource) or, in a mirror, an upstream registry's. What answers
 * from the index reads only this, so either can stand behind the same routes.
 */
export interface IndexSource {
  /** The index as it stands; replaced whole when the source rebuilds it. */
  readonly index: AuthorizationIndex;
  /** The last feed event applied. */
  readonly cursor: string | undefined;
  /** True once caught up with the feed; lookups answer 503 before. */
  readonly live: boolean;
  /** Resolves once `check` holds, checked whenever the index moves. */
  until(check: (source: this) => boolean): Promise<void>;
  /** Resolves once the index has applied `eventId` (or a later event). */
  reached(eventId: string): Promise<void>;
  /** Begins building and following, in the background. */
  start(): void;
  close(): void;
}

/** The part of an `IndexSource` every follower shares: its cursor, and waiting on it. */
export abstract class FeedPosition {
  /** The last feed event applied. */
  cursor: string | undefined;
  /** Told whenever the follower moves; `until` checks again then. */
  protected readonly conditions = new Conditions();

  /** Resolves once `check` holds, checked whenever the follower moves. */
  until(check: (source: this) => boolean): Promise<void> {
    return this.conditions.until(() => check(this));
  }

  /** Resolves once `eventId` (or a later event) is applied. */
  reached(eventId: string): Promise<void> {
    return this.until((f) => f.cursor !== undefined && f.cursor >= eventId);
  }
}
