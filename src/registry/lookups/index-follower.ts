import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import {
  readEvents,
  readSnapshot,
  type EventRow,
  type FeedHub,
  type HubSubscriber,
  type SnapshotSection,
} from '../feed/index.ts';
import { AuthorizationIndex } from './authorization-index.ts';
import { indexReads } from './index-store.ts';
import { FeedPosition, type IndexSource } from './index-source.ts';

const snapshotPage = 2000;
const eventBatch = 1000;

/**
 * Keeps this process's authorization index current: it loads the feed snapshot (the graph as it
 * is, with the feed cursor taken before the first page), then applies every event after that
 * cursor, reading from the database until caught up and then live from the hub's batches, which
 * LISTEN/NOTIFY (or PGlite's notifications) wake on any instance's commit. Events carry whole
 * states, so an event that repeats what a later snapshot page showed changes nothing.
 */
export class IndexFollower extends FeedPosition implements HubSubscriber, IndexSource {
  readonly follower = true;
  index = new AuthorizationIndex();
  /** The last event applied: where the index stands in the feed. */
  /** True once caught up with the feed; from then on each commit is applied as the hub reads it. */
  live = false;
  private closed = false;
  private unsubscribe: (() => void) | undefined;
  private readonly db: Queryable;
  private readonly hub: FeedHub;
  private readonly sections: readonly SnapshotSection[];
  private readonly log: FastifyBaseLogger;

  constructor(parts: { db: Queryable; hub: FeedHub; sections: readonly SnapshotSection[]; log: FastifyBaseLogger }) {
    super();
    ({ db: this.db, hub: this.hub, sections: this.sections, log: this.log } = parts);
  }

  /** Builds the index in the background, retrying with backoff while the database cannot answer. */
  start(): void {
    void (async () => {
      for (let attempt = 0; !this.closed; attempt++) {
        try {
          await this.build();
          return;
        } catch (err) {
          this.log.warn({ err }, 'authorization index could not be built yet; retrying');
          await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 250 * 2 ** attempt)).unref());
        }
      }
    })();
  }

  close(): void {
    this.closed = true;
    this.unsubscribe?.();
    this.conditions.changed();
  }

  deliver(batch: readonly EventRow[]): void {
    if (!this.live || this.closed) return;
    this.applyRows(batch);
  }

  heartbeat(): void {}

  end(): void {
    this.live = false;
  }

  private async build(): Promise<void> {
    // The hub must listen before the first read, or a commit between our catch-up and its start
    // would reach neither.
    this.hub.assertListening();
    const index = new AuthorizationIndex();
    let token: string | undefined;
    let cursor: string | null;
    for (;;) {
      const page = await readSnapshot(this.db, this.sections, token, snapshotPage);
      for (const item of page.items) index.apply(item.entity_type, item.data);
      cursor = page.cursor;
      if (!page.has_more || page.next_page_token === null) break;
      token = page.next_page_token;
    }
    if (this.closed) return;
    this.index = index;
    this.cursor = cursor ?? undefined;
    // Subscribed before catching up, so no batch can pass between the last read and going live.
    this.unsubscribe = this.hub.subscribe(this);
    for (;;) {
      const generation = this.hub.generation;
      const rows = await readEvents(this.db, this.cursor, eventBatch);
      if (this.closed) return;
      this.applyRows(rows);
      if (rows.length < eventBatch && this.hub.generation === generation) break;
    }
    this.live = true;
    this.log.info({ ...this.index.size, cursor: this.cursor ?? null }, 'authorization index caught up with the feed');
    this.conditions.changed();
  }

  private applyRows(rows: readonly EventRow[]): void {
    let moved = false;
    for (const row of rows) {
      if (this.cursor !== undefined && row.event_id <= this.cursor) continue;
      if (indexReads(row.event_type)) {
        try {
          const event = JSON.parse(row.json) as { event_type: string; payload: Record<string, unknown> };
          this.index.apply(event.event_type, event.payload);
        } catch (err) {
          this.log.error({ err, event_id: row.event_id }, 'authorization index could not apply an event; skipping it');
        }
      }
      this.cursor = row.event_id;
      moved = true;
    }
    if (moved) this.conditions.changed();
  }
}
