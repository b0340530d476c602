import { randomBytes } from 'node:crypto';
import type { Clock } from '../../../clock.ts';
import { ApError } from '../../../protocol/errors.ts';
import type { Ranked } from './ranking.ts';

/** A search's whole ranking, frozen when its first page was asked for: later pages read it. */
export interface Snapshot {
  id: string;
  ranked: readonly Ranked[];
  /** The profiles' generation it was ranked at, and when it stops serving later pages. */
  generation: number;
  expiresAt: number;
}

export interface SnapshotLimits {
  /** How long a ranking serves its later pages. */
  ttlMs: number;
  /** Rankings kept at most (the oldest goes first). */
  entries: number;
}

/**
 * Keeps each search's ranking for its later pages, so paging never skips or repeats an agent,
 * even when scores tie or profiles change between pages: a cursor names its ranking and a
 * position in it. The same search at the same generation reuses one ranking (first pages of a
 * popular search cost no ranking at all).
 */
export class ResultSnapshots {
  private readonly byKey = new Map<string, Snapshot>();
  private readonly byId = new Map<string, Snapshot>();
  private readonly clock: Clock;
  private readonly limits: SnapshotLimits;

  constructor(clock: Clock, limits: SnapshotLimits) {
    this.clock = clock;
    this.limits = limits;
  }

  /** The ranking of `key` at `generation`, ranked now unless one is kept. */
  ranking(key: string, generation: number, rankAll: () => Ranked[]): Snapshot {
    const now = this.clock.now().getTime();
    const kept = this.byKey.get(key);
    if (kept && kept.generation === generation && kept.expiresAt > now) return kept;
    const snapshot: Snapshot = {
      id: randomBytes(9).toString('base64url'),
      ranked: rankAll(),
      generation,
      expiresAt: now + this.limits.ttlMs,
    };
    this.byKey.delete(key);
    this.byKey.set(key, snapshot);
    this.byId.set(snapshot.id, snapshot);
    this.evict(now);
    return snapshot;
  }

  /** The ranking a cursor names; 410 once it is gone. */
  named(id: string): Snapshot {
    const snapshot = this.byId.get(id);
    if (!snapshot || snapshot.expiresAt <= this.clock.now().getTime()) {
      throw new ApError(
        'cursor_expired',
        `This search cursor has expired (a ranking serves its later pages for ${Math.round(this.limits.ttlMs / 60_000)} minutes); search again from the first page.`,
      );
    }
    return snapshot;
  }

  private evict(now: number): void {
    for (const [id, snapshot] of this.byId) {
      if (this.byId.size <= this.limits.entries && snapshot.expiresAt > now) break;
      this.byId.delete(id);
    }
    for (const [key, snapshot] of this.byKey) if (!this.byId.has(snapshot.id)) this.byKey.delete(key);
  }
}
