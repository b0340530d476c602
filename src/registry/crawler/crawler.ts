import type { Clock } from '../../clock.ts';
import type { CrawlerConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { applyAdagents, applyBrandJson, markStale, projectAdagents, projectBrandJson } from '../graph/index.ts';
import { fetchDocument, type DocumentOutcome } from './fetch-document.ts';
import { HostPacer } from './host-pacer.ts';
import { nextCrawlAt } from './schedule.ts';
import * as sql from './sql.ts';

function manifestFetch(kind: sql.ManifestFetch['kind'], outcome: DocumentOutcome): sql.ManifestFetch {
  return {
    kind,
    outcome: outcome.kind,
    url: outcome.url,
    chain: outcome.chain,
    reason: outcome.kind === 'found' ? null : outcome.reason,
  };
}

// Enough for any real network's file; a file naming thousands of publishers cannot flood the queue.
const discoveredPerCrawl = 100;

/** What one crawl of a domain came to, for the queue, the CLI and logs. */
export interface CrawlReport {
  domain: string;
  adagents: DocumentOutcome['kind'];
  brand: DocumentOutcome['kind'];
  /** Feed events the crawl wrote. */
  events: number;
  properties: number;
  agents: number;
  /** Why the adagents.json fetch did not count, when it did not. */
  problem: string | undefined;
  nextCrawlAt: Date;
}

/**
 * Crawls one domain: fetches its adagents.json and brand.json, applies each to the graph in its
 * own transaction, and records when the domain is next due. The worker and `ap crawl` both come
 * here, so a domain crawled either way is crawled the same.
 */
interface Waiter {
  resolve(report: CrawlReport): void;
  reject(err: unknown): void;
}

export class Crawler {
  readonly config: CrawlerConfig;
  private readonly db: Database;
  private readonly fetcher: SafeFetch;
  private readonly clock: Clock;
  private readonly pacer: HostPacer;
  private readonly onReport: (report: CrawlReport) => void;
  /** Callers of `crawled`, by domain. */
  private readonly awaiting = new Map<string, Waiter[]>();

  /** `onReport` hears of every crawl that ran (metrics). */
  constructor(parts: {
    db: Database;
    fetcher: SafeFetch;
    clock: Clock;
    config: CrawlerConfig;
    onReport?: (report: CrawlReport) => void;
  }) {
    this.db = parts.db;
    this.fetcher = parts.fetcher;
    this.clock = parts.clock;
    this.config = parts.config;
    this.pacer = new HostPacer(parts.config.hostDelayMs);
    this.onReport = parts.onReport ?? (() => {});
  }

  /**
   * Resolves with the report of the next crawl of `domain` to finish here, whoever started it (the
   * worker, a crawl request, `ap crawl`), so a test awaits the crawl instead of polling the tables.
   */
  crawled(domain: string): Promise<CrawlReport> {
    return new Promise((resolve, reject) =>
      this.awaiting.set(domain, [...(this.awaiting.get(domain) ?? []), { resolve, reject }]),
    );
  }

  async crawl(domain: string): Promise<CrawlReport> {
    // Waiters learn of a crawl that threw too, rather than waiting for one that never comes.
    const settle = (tell: (waiter: Waiter) => void) => {
      const waiting = this.awaiting.get(domain) ?? [];
      this.awaiting.delete(domain);
      for (const waiter of waiting) tell(waiter);
    };
    try {
      const report = await this.crawlOnce(domain);
      settle((waiter) => waiter.resolve(report));
      return report;
    } catch (err) {
      settle((waiter) => waiter.reject(err));
      throw err;
    }
  }

  private async crawlOnce(domain: string): Promise<CrawlReport> {
    const [adagents, brand] = await Promise.all([
      fetchDocument(this.fetcher, this.pacer, domain, 'adagents_json', this.config),
      fetchDocument(this.fetcher, this.pacer, domain, 'brand_json', this.config),
    ]);
    const now = this.clock.now();
    let events = 0;
    let properties = 0;
    let agents = 0;
    if (adagents.kind === 'found') {
      const projection = projectAdagents(domain, adagents.url, adagents.document);
      properties = projection.properties.length;
      agents = new Set(projection.authorizations.map((a) => a.agent_url_canonical)).size;
      events += (await this.db.transaction((tx) => applyAdagents(tx, projection, adagents.document, now))).events;
      // Publishers whose properties this file lets agents sell are worth knowing too.
      const named = new Set(projection.authorizations.flatMap((a) => a.scopes.map((s) => s.target_publisher)));
      named.delete(domain);
      await sql.enqueueNew(this.db, [...named].slice(0, discoveredPerCrawl), now);
    } else if (adagents.kind === 'absent' || adagents.kind === 'invalid') {
      events += (await this.db.transaction((tx) => markStale(tx, domain, adagents.reason, now))).events;
    }
    if (brand.kind === 'found') {
      const projection = projectBrandJson(domain, brand.document);
      events += (await this.db.transaction((tx) => applyBrandJson(tx, domain, brand.url, projection, brand.document)))
        .events;
    }

    const transient = adagents.kind === 'transient' || brand.kind === 'transient';
    const failures = transient ? (await sql.failuresOf(this.db, domain)) + 1 : 0;
    const retryAfterSeconds = [adagents, brand]
      .map((o) => (o.kind === 'transient' ? o.retryAfterSeconds : undefined))
      .find((s) => s !== undefined);
    const next = nextCrawlAt(now, this.config, {
      transient,
      failures,
      ...(retryAfterSeconds ? { retryAfterSeconds } : {}),
    });
    const problem = adagents.kind === 'found' ? undefined : adagents.reason;
    await sql.recordCrawl(this.db, {
      domain,
      nextAt: next,
      failures,
      outcome: adagents.kind,
      error: problem ?? null,
      crawledAt: now,
    });
    await sql.recordManifestFetches(
      this.db,
      domain,
      [manifestFetch('adagents_json', adagents), manifestFetch('brand_json', brand)],
      now,
    );
    const report = {
      domain,
      adagents: adagents.kind,
      brand: brand.kind,
      events,
      properties,
      agents,
      problem,
      nextCrawlAt: next,
    };
    this.onReport(report);
    return report;
  }
}
