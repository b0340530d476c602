import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/database.ts';
import { WorkPool } from '../../jobs/work-pool.ts';
import type { Crawler } from './crawler.ts';
import * as sql from './sql.ts';

// How often entries saved since are picked up for crawling.
const seedEveryMs = 10 * 60_000;

/**
 * Crawls due domains from the shared queue, up to the concurrency limit at a time. Every instance
 * may run one; SKIP LOCKED claims mean no two crawl the same domain, and a crawl pushes the
 * domain's due time a whole interval on, so each domain is crawled once per cycle.
 */
export class CrawlWorker {
  private readonly db: Database;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;
  private readonly pool: WorkPool<string>;
  private seededAt = -Infinity;
  /** Longer than any one crawl can take (two capped fetches, a few hops, two short transactions). */
  private readonly leaseMs: number;

  constructor(parts: { db: Database; clock: Clock; crawler: Crawler; log: FastifyBaseLogger }) {
    ({ db: this.db, clock: this.clock, log: this.log } = parts);
    const { crawler } = parts;
    this.leaseMs = crawler.config.leaseSeconds * 1000;
    this.pool = new WorkPool({
      claim: (room) => this.claim(room),
      run: async (domain) => void this.log.info({ crawl: await crawler.crawl(domain) }, 'crawled'),
      onClaimError: (err) => this.log.error({ err }, 'crawl worker could not claim domains; the next pass retries'),
      onRunError: (err, domain) =>
        this.log.error({ err, domain }, 'crawl failed; its lease will lapse and it is crawled again'),
      concurrency: crawler.config.concurrency,
      pollMs: crawler.config.pollSeconds * 1000,
    });
  }

  start(): void {
    this.pool.start();
  }

  wake(): void {
    this.pool.wake();
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async claim(room: number): Promise<string[]> {
    const now = this.clock.now();
    if (now.getTime() - this.seededAt >= seedEveryMs) {
      this.seededAt = now.getTime();
      const added = await sql.enqueueKnownDomains(this.db, now);
      if (added > 0) this.log.info({ added }, 'queued registry entries for crawling');
    }
    const due = await sql.claimDue(this.db, room, now, new Date(now.getTime() + this.leaseMs));
    // At debug level every pass shows, empty ones too: how an operator (or a test) sees that a
    // worker keeps looking and finds nothing due.
    this.log.debug({ claimed: due.length }, 'crawl worker claimed');
    return due;
  }
}
