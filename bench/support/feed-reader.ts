import { setTimeout as sleep } from 'node:timers/promises';
import { Conditions } from '../../src/jobs/conditions.ts';
import { SseClient } from '../../test/support/feed.ts';

const RECONNECT_DELAY_MS = 1000;

/**
 * A long-lived reader of `GET /api/registry/feed/stream`, as a mirror runs one: from a cursor, it
 * keeps every event id it is sent, in order, and when the stream ends or goes silent past a few
 * heartbeats it opens a new one from its last cursor (counted in `reconnects`). `stop()` ends it.
 */
export class FeedReader {
  readonly eventIds: string[] = [];
  reconnects = 0;
  /** The last HTTP status a stream was refused with, when one was. */
  refusedWith: number | undefined;
  cursor: string;
  private stopped = false;
  private client: SseClient | undefined;
  private readonly progress = new Conditions();
  private readonly running: Promise<void>;
  private readonly base: string;
  private readonly headers: Record<string, string>;
  private readonly silenceMs: number;

  /** `silenceMs`: silence longer than this (a few heartbeats) means the stream is dead. */
  constructor(base: string, cursor: string, headers: Record<string, string>, silenceMs: number) {
    this.base = base;
    this.cursor = cursor;
    this.headers = headers;
    this.silenceMs = silenceMs;
    this.running = this.run();
  }

  /** Resolves once the reader's cursor reached `eventId` (the feed's head), or after `timeoutMs`; true when reached. */
  async reached(eventId: string, timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const reached = this.progress.until(() => this.cursor >= eventId).then(() => true);
    try {
      return await Promise.race([reached, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.client?.close();
    await this.running;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const client = (this.client = new SseClient(
        `${this.base}/api/registry/feed/stream?cursor=${this.cursor}`,
        this.headers,
      ));
      try {
        await client.opened();
        if (client.status !== 200) throw new Error(`HTTP ${(this.refusedWith = client.status)}`);
        for (;;) {
          const message = await client.next(this.silenceMs);
          if (message.event === 'feed')
            for (const event of message.data.events as Array<{ event_id: string }>) this.eventIds.push(event.event_id);
          if (typeof message.data.cursor === 'string') this.cursor = message.data.cursor;
          this.progress.changed();
        }
      } catch {
        if (!this.stopped) this.reconnects++;
      } finally {
        client.close();
      }
      // A server refusing or dropping every stream is not asked again at once, in a tight loop.
      if (!this.stopped) await sleep(RECONNECT_DELAY_MS);
    }
  }
}
