import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/database.ts';
import { BackgroundPass } from '../../jobs/background-pass.ts';
import { agentTypes } from '../agents/index.ts';
import * as sql from './sql.ts';

const day = 24 * 60 * 60 * 1000;
const visibilities = ['public', 'members_only', 'private'] as const;
const outcomes = ['found', 'absent', 'invalid', 'transient'] as const;

/** What the stats answer holds that no in-memory index does, as counted at `as_of`. */
export interface Summary {
  as_of: string;
  brands: { total: number; by_source: Record<string, number> };
  agents: { total: number; by_type: Record<string, number>; by_visibility: Record<string, number> };
  feed: { events_last_day: number; latest_event_at: string | null };
  crawl: {
    domains: number;
    due: number;
    in_progress: number;
    failing: number;
    never_crawled: number;
    oldest_due_at: string | null;
    crawled_last_day: { total: number; by_outcome: Record<string, number> };
  };
}

/**
 * The registry summary (brands, enrolled agents, the feed's last day, crawl health), counted by a
 * few aggregate queries in the background, every `intervalMs` and at start, so the stats route
 * reads memory only. A failed refresh keeps the previous summary (its `as_of` tells its age).
 */
export class RegistrySummary {
  current: Summary | undefined;
  private first: Promise<void> | undefined;
  private readonly pass: BackgroundPass;
  private readonly db: Database;
  private readonly clock: Clock;

  constructor(parts: { db: Database; clock: Clock; log: FastifyBaseLogger; intervalMs: number }) {
    this.db = parts.db;
    this.clock = parts.clock;
    this.pass = new BackgroundPass(
      () => this.count(),
      (err) => parts.log.warn({ err }, 'registry summary could not be refreshed; keeping the previous one'),
      parts.intervalMs,
    );
  }

  start(): void {
    this.first = this.pass.nextPass();
    this.pass.start();
  }

  /** The summary once the first count has run (a request arriving before it waits for it, not for a query of its own). */
  async counted(): Promise<Summary | undefined> {
    if (this.current === undefined) await this.first;
    return this.current;
  }

  stop(): Promise<void> {
    return this.pass.stop();
  }

  /** Counts again now; resolves once a refresh begun after this call has finished (tests). */
  refresh(): Promise<void> {
    const next = this.pass.nextPass();
    this.pass.wake();
    return next;
  }

  private async count(): Promise<void> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - day);
    const brands = await sql.brandsBySource(this.db);
    const agents = await sql.agentsByTypeAndVisibility(this.db);
    const feed = await sql.feedSince(this.db, since);
    const crawl = await sql.crawlHealth(this.db, now, since);
    const tally = <K extends string>(keys: readonly K[], rows: Array<{ key: string; n: number }>) => {
      const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<string, number>;
      for (const { key, n } of rows) out[key] = (out[key] ?? 0) + n;
      return out;
    };
    const sum = (rows: Array<{ n: number }>) => rows.reduce((total, r) => total + r.n, 0);
    this.current = {
      as_of: now.toISOString(),
      brands: {
        total: sum(brands),
        by_source: tally(
          ['brand_json', 'enriched', 'community'],
          brands.map((r) => ({ key: r.source, n: r.n })),
        ),
      },
      agents: {
        total: sum(agents),
        by_type: tally(
          agentTypes,
          agents.map((r) => ({ key: r.type, n: r.n })),
        ),
        by_visibility: tally(
          visibilities,
          agents.map((r) => ({ key: r.visibility, n: r.n })),
        ),
      },
      feed: { events_last_day: feed.events, latest_event_at: feed.latest?.toISOString() ?? null },
      crawl: {
        domains: crawl.queue.domains,
        due: crawl.queue.due,
        in_progress: crawl.queue.in_progress,
        failing: crawl.queue.failing,
        never_crawled: crawl.queue.never_crawled,
        oldest_due_at: crawl.queue.oldest_due_at?.toISOString() ?? null,
        crawled_last_day: {
          total: sum(crawl.outcomes),
          by_outcome: tally(
            outcomes,
            crawl.outcomes.map((r) => ({ key: r.outcome, n: r.n })),
          ),
        },
      },
    };
  }
}
