import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { defaultSubscribed, type EventType } from './event-types.ts';
import type { FeedHub, HubSubscriber } from './hub.ts';
import { freshness, readPage, renderPage, type FeedSettings, type PageRequest } from './pages.ts';
import type { EventRow } from './sql.ts';

/**
 * One Server-Sent Events subscriber. It reads pages from the database until caught up, then goes
 * live on the hub's batches. The resume cursor travels in each message's `data.cursor` (never the
 * SSE id). Memory stays bounded for a slow client: while its socket is full nothing is queued;
 * the stream drops back to reading from the database at its cursor once the socket drains.
 */
export class FeedStream implements HubSubscriber {
  private cursor: string | undefined;
  private readonly types: ReadonlySet<EventType> | undefined;
  private latest: Date | null = null;
  private live = false;
  private wasLive = false;
  private reading = false;
  private closed = false;
  private unsubscribe: (() => void) | undefined;
  private readonly res: ServerResponse;
  private readonly hub: FeedHub;
  private readonly db: Queryable;
  private readonly settings: FeedSettings;
  private readonly request: PageRequest;
  private readonly log: FastifyBaseLogger;

  constructor(
    res: ServerResponse,
    parts: { hub: FeedHub; db: Queryable; settings: FeedSettings; request: PageRequest; log: FastifyBaseLogger },
  ) {
    this.res = res;
    ({ hub: this.hub, db: this.db, settings: this.settings, request: this.request, log: this.log } = parts);
    this.cursor = parts.request.cursor;
    this.types = parts.request.types && new Set(parts.request.types);
  }

  start(): void {
    // Subscribed before the first read, so no batch can pass between the read and going live.
    this.unsubscribe = this.hub.subscribe(this);
    this.res.on('close', () => this.end());
    this.res.on('error', () => this.end());
    this.res.on('drain', () => this.catchUp());
    this.catchUp();
  }

  deliver(batch: readonly EventRow[]): void {
    if (!this.live || this.closed) return;
    const matching = batch.filter(
      (e) =>
        (this.cursor === undefined || e.event_id > this.cursor) &&
        (this.types ? this.types.has(e.event_type) : defaultSubscribed(e.event_type)),
    );
    const { limit } = this.request;
    for (let i = 0; i < matching.length; i += limit) {
      if (this.res.writableNeedDrain) {
        // Slow client: keep nothing; after 'drain' it reads the rest from the database.
        this.live = false;
        return;
      }
      const events = matching.slice(i, i + limit);
      const last = events.at(-1)!;
      this.send(
        'feed',
        renderPage({
          events,
          cursor: last.event_id,
          has_more: i + limit < matching.length,
          freshness: freshness(this.settings, last.created_at),
        }),
      );
      this.cursor = last.event_id;
      this.latest = last.created_at;
    }
  }

  heartbeat(): void {
    if (this.live && !this.closed && !this.res.writableNeedDrain) this.sendHeartbeat();
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe?.();
    if (!this.res.writableEnded) this.res.end();
  }

  private catchUp(): void {
    if (this.reading || this.live || this.closed) return;
    this.reading = true;
    this.readUntilCaughtUp()
      .catch((err: unknown) => {
        this.log.error({ err }, 'feed stream could not read; closing it so the client resumes from its cursor');
        this.end();
      })
      .finally(() => {
        this.reading = false;
      });
  }

  private async readUntilCaughtUp(): Promise<void> {
    while (!this.closed) {
      const generation = this.hub.generation;
      const page = await readPage(this.db, this.settings, { ...this.request, cursor: this.cursor });
      if (this.closed) return;
      const latest = page.freshness.latest_event_created_at;
      this.latest = latest === null ? null : new Date(latest);
      if (page.events.length > 0) {
        this.send('feed', renderPage(page));
        this.cursor = page.cursor ?? undefined;
      }
      if (!page.has_more && this.hub.generation === generation) {
        this.live = true;
        // The first time caught up, say so at once rather than at the next heartbeat.
        if (!this.wasLive) this.sendHeartbeat();
        this.wasLive = true;
        return;
      }
      if (this.res.writableNeedDrain) return;
    }
  }

  private sendHeartbeat(): void {
    this.send(
      'heartbeat',
      JSON.stringify({ cursor: this.cursor ?? null, freshness: freshness(this.settings, this.latest) }),
    );
  }

  private send(event: 'feed' | 'heartbeat', data: string): void {
    this.res.write(`event: ${event}\ndata: ${data}\n\n`);
  }
}
