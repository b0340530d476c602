import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/database.ts';
import { BackgroundPass } from '../../jobs/background-pass.ts';
import type { Crawler } from './crawler.ts';
import * as sql from './sql.ts';

// Longer than any one crawl can take (two capped fetches, a few hops, two short transactions).
const leaseMs = 10 * 60_000;
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
  private readonly crawler: Crawler;
  private readonly log: FastifyBaseLogger;
  private readonly pass: BackgroundPass;
  private readonly inFlight = new Set<Promise<void>>();
  private seededAt = -Infinity;

  constructor(parts: { db: Database; clock: Clock; crawler: Crawler; log: FastifyBaseLogger }) {
    this.db = parts.db;
    this.clock = parts.clock;
    this.crawler = parts.crawler;
    this.log = parts.log;
    this.pass = new BackgroundPass(
      () => this.claim(),
      (err) => this.log.error({ err }, 'crawl worker could not claim domains; the next pass retries'),
      parts.crawler.config.pollSeconds * 1000,
    );
  }

  start(): void {
    this.pass.start();
  }

  wake(): void {
    this.pass.wake();
  }

  /** Stops claiming; crawls in progress get a few seconds, after which their leases bring them back. */
  async close(): Promise<void> {
    await this.pass.stop();
    await Promise.race([Promise.all(this.inFlight), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  }

  private async claim(): Promise<void> {
    if (this.clock.now().getTime() - this.seededAt >= seedEveryMs) {
      this.seededAt = this.clock.now().getTime();
      const added = await sql.enqueueKnownDomains(this.db, this.clock.now());
      if (added > 0) this.log.info({ added }, 'queued registry entries for crawling');
    }
    while (!this.pass.stopping) {
      const room = this.crawler.config.concurrency - this.inFlight.size;
      if (room <= 0) return;
      const now = this.clock.now();
      const domains = await sql.claimDue(this.db, room, now, new Date(now.getTime() + leaseMs));
      if (domains.length === 0) return;
      for (const domain of domains) {
        const running: Promise<void> = this.crawler
          .crawl(domain)
          .then((report) => this.log.info({ crawl: report }, 'crawled'))
          .catch((err: unknown) => this.log.error({ err, domain }, 'crawl failed; its lease will lapse and it is crawled again'))
          .finally(() => {
            this.inFlight.delete(running);
            this.wake();
          });
        this.inFlight.add(running);
      }
    }
  }
}
