import type { Clock } from '../clock.ts';
import type { Database, Listening } from './database.ts';
import { notifyChannel } from './notify-channel.ts';

export interface NotifiedCacheOptions {
  /** The prefix of the NOTIFY channel the triggers of what is cached signal on (see notifyChannel). */
  channel: string;
  /** Longest an entry is trusted, however quiet the notifications: a bound on any gap in them. */
  ttlMs: number;
  /** Entries kept at most; the oldest go first. */
  maxEntries: number;
}

/** What a loader found: the value to answer, and until when it may be reused (ms since the epoch). */
export interface Loaded<T> {
  value: T;
  until?: number;
}

interface Entry {
  value: unknown;
  until: number;
}

/**
 * What the database says, kept in memory, so a hot path costs no database read: verified
 * credentials, brand records, held exclusive rights.
 *
 * The guarantee is the same as reading the database every time: a change committed (by any
 * process) before a request arrives is seen by that request. Every change to the rows a cached
 * value derives from sends a NOTIFY at commit (triggers on those tables, e.g. migrations 0016 and
 * 0017 for credentials), and any notification empties the cache. Before answering from the cache
 * a request waits for `sync()`: every notification committed before it has been heard. A load
 * that raced a notification is not kept (the generation moved meanwhile). While not listening
 * (starting, or the connection lost) nothing is kept and every lookup loads.
 */
export class NotifiedCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private listening: Listening | undefined;
  private stopped = false;
  private readonly db: Database;
  private readonly clock: Clock;
  private readonly options: NotifiedCacheOptions;

  constructor(db: Database, clock: Clock, options: NotifiedCacheOptions) {
    this.db = db;
    this.clock = clock;
    this.options = options;
  }

  /** Starts listening; a failure leaves the cache off (every lookup loads), which is only slower. */
  async start(): Promise<void> {
    const listening = await this.db.listen(await notifyChannel(this.db, this.options.channel), () => this.clear());
    if (this.stopped) return void (await listening());
    this.clear();
    this.listening = listening;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const listening = this.listening;
    this.listening = undefined;
    this.clear();
    await listening?.();
  }

  /** Forgets everything, as a notification does. */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /**
   * The cached value for `key`, or what `load` finds (kept when it is not null). Only values
   * derived from the database rows the channel's triggers watch (and the key itself) may be cached
   * this way.
   */
  async get<T>(key: string, load: () => Promise<Loaded<T> | null>): Promise<T | null> {
    const listening = this.listening;
    const synced = listening
      ? await listening.sync().then(
          () => true,
          () => false,
        )
      : false;
    const now = this.clock.now().getTime();
    if (synced) {
      const entry = this.entries.get(key);
      if (entry && entry.until > now) return entry.value as T;
      if (entry) this.entries.delete(key);
    }
    const generation = this.generation;
    const loaded = await load();
    if (!loaded) return null;
    if (synced && generation === this.generation && this.listening === listening) this.keep(key, loaded, now);
    return loaded.value;
  }

  private keep(key: string, loaded: Loaded<unknown>, now: number): void {
    const until = Math.min(now + this.options.ttlMs, loaded.until ?? Infinity);
    if (until <= now) return;
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value: loaded.value, until });
  }
}
