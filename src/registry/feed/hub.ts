import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { notifyChannel } from '../../db/notify-channel.ts';
import { Conditions } from '../../jobs/conditions.ts';
import { BackgroundPass } from '../../jobs/background-pass.ts';
import { ApError } from '../../protocol/errors.ts';
import * as sql from './sql.ts';
import type { EventRow } from './sql.ts';

/** What the hub hands new events to: one per open stream, and in-process followers (the authorization index). */
export interface HubSubscriber {
  /** An in-process reader, not a client's stream: it is not counted as an open stream. */
  readonly follower?: boolean;
  /** New events, in id order, continuing exactly where the previous batch ended. */
  deliver(batch: readonly EventRow[]): void;
  /** The heartbeat interval passed; say so if caught up. */
  heartbeat(): void;
  /** The server is closing. */
  end(): void;
}

const batchSize = 1000;

/**
 * One reader of new events per process, fanning them out to every open stream, so a thousand
 * subscribers cost one query per commit, not a thousand. It is woken by NOTIFY (PostgreSQL) or the
 * in-process notification (PGlite) that a committing event sends, and once per heartbeat as a
 * safety net; it never polls per client.
 *
 * `generation` moves whenever `head` does, in the same tick as the delivery. A stream catching up
 * from the database compares it before and after each read: unchanged means no batch went by
 * unseen, and the hub's head was committed before that read began, so every later batch starts at
 * or before where the read ended, and the stream can go live without a gap (duplicates are
 * dropped by id).
 */
export class FeedHub {
  generation = 0;
  private head: string | null = null;
  private readonly subscribers = new Set<HubSubscriber>();
  private unlisten: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Pending `until` checks. */
  private readonly conditions = new Conditions();

  private readonly db: Database;
  private readonly heartbeatMs: number;
  private readonly log: FastifyBaseLogger;
  private readonly reader: BackgroundPass;

  constructor(db: Database, heartbeatMs: number, log: FastifyBaseLogger) {
    this.db = db;
    this.heartbeatMs = heartbeatMs;
    this.log = log;
    // Woken by notifications and heartbeats, not an interval of its own.
    this.reader = new BackgroundPass(
      () => this.readNew(),
      (err) => this.log.error({ err }, 'feed hub could not read new events; the next wake retries'),
    );
  }

  /**
   * Starts listening. Resolves after the first attempt; if the database is down it keeps retrying
   * in the background, so the server still starts and streams answer 503 until the hub listens.
   */
  async start(): Promise<void> {
    if (await this.tryListen()) return;
    void (async () => {
      for (let attempt = 0; !this.closed; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 500 * 2 ** attempt)).unref());
        if (!this.closed && (await this.tryListen())) return;
      }
    })();
  }

  /** Throws `service_unavailable` until the hub listens. */
  assertListening(): void {
    if (!this.unlisten)
      throw new ApError(
        'service_unavailable',
        'The change feed stream is starting; retry shortly, or poll GET /api/registry/feed.',
      );
  }

  private async tryListen(): Promise<boolean> {
    try {
      const head = await sql.headEventId(this.db);
      const unlisten = await this.db.listen(await notifyChannel(this.db, 'ap_feed'), () => this.wake());
      if (this.closed) {
        await unlisten();
        return true;
      }
      this.head = head;
      this.unlisten = unlisten;
    } catch (err) {
      this.log.warn({ err }, 'feed hub cannot listen yet; retrying');
      return false;
    }
    this.timer = setInterval(() => {
      this.wake();
      for (const subscriber of this.subscribers) subscriber.heartbeat();
    }, this.heartbeatMs);
    this.timer.unref();
    return true;
  }

  subscribe(subscriber: HubSubscriber): () => void {
    this.subscribers.add(subscriber);
    this.changed();
    return () => {
      this.subscribers.delete(subscriber);
      this.changed();
    };
  }

  /** Open client streams (in-process followers are not streams). */
  get subscriberCount(): number {
    let followers = 0;
    for (const subscriber of this.subscribers) if (subscriber.follower) followers++;
    return this.subscribers.size - followers;
  }

  /** The last event id read and handed to the streams. */
  get lastRead(): string | null {
    return this.head;
  }

  /**
   * Resolves once `check` holds, checked now and whenever a stream comes or goes or the head moves,
   * so a test waits for the hub's own work (a stream closed, a commit fanned out) instead of sleeping.
   */
  until(check: () => boolean): Promise<void> {
    return this.conditions.until(check);
  }

  private changed(): void {
    this.conditions.changed();
  }

  /** Reads what committed since the last read; wakes during a read fold into one more read. */
  wake(): void {
    this.reader.wake();
  }

  private async readNew(): Promise<void> {
    if (this.subscribers.size === 0) {
      // Nobody to hand rows to: only move the head, so a later subscriber is not handed a backlog;
      // unless one arrived during the query, which must then get every row after the old head.
      const head = await sql.headEventId(this.db);
      if (this.subscribers.size === 0) return this.advance(head, []);
    }
    let rows: EventRow[];
    do {
      rows = await sql.eventsAfter(this.db, this.head ?? undefined, undefined, batchSize);
      if (rows.length > 0) this.advance(rows.at(-1)!.event_id, rows);
    } while (rows.length === batchSize);
  }

  private advance(head: string | null, rows: readonly EventRow[]): void {
    if (head === this.head) return;
    this.head = head;
    this.generation++;
    if (rows.length > 0) for (const subscriber of this.subscribers) subscriber.deliver(rows);
    this.changed();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.reader.stop();
    await this.unlisten?.();
    for (const subscriber of this.subscribers) subscriber.end();
    this.subscribers.clear();
    this.changed();
  }
}
