import type { Clock } from '../../clock.ts';
import type { CrawlerConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { storedDocument, type DocumentKind } from '../documents/well-known.ts';
import {
  applyAdagents,
  applyBrandJson,
  markStale,
  projectAdagents,
  projectBrandJson,
  touchIfCurrent,
} from '../graph/index.ts';
import { fetchDocument, type DocumentOutcome, type Validators } from './fetch-document.ts';
import { HostPacer } from './host-pacer.ts';
import { nextCrawlAt } from './schedule.ts';
import * as sql from './sql.ts';

function manifestFetch(kind: DocumentKind, outcome: DocumentOutcome, known: Validators | undefined): sql.ManifestFetch {
  switch (outcome.kind) {
    case 'found':
      return {
        kind,
        outcome: 'found',
        url: outcome.url,
        chain: outcome.chain,
        reason: null,
        validators: outcome.validators,
      };
    case 'unchanged':
      return { kind, outcome: 'found', url: outcome.url, chain: outcome.chain, reason: null, validators: known };
    default:
      return { kind, outcome: outcome.kind, url: outcome.url, chain: outcome.chain, reason: outcome.reason };
  }
}

// Enough for any real network's file; a file naming thousands of publishers cannot flood the queue.
const discoveredPerCrawl = 100;

/** What one crawl of a domain came to, for the queue, the CLI and logs. */
export interface CrawlReport {
  domain: string;
  /** `found` for an unchanged document too (see `unchanged`). */
  adagents: Exclude<DocumentOutcome['kind'], 'unchanged'>;
  brand: Exclude<DocumentOutcome['kind'], 'unchanged'>;
  /** The adagents.json answered 304 and the graph already said what it says: nothing was read or applied. */
  unchanged: boolean;
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
    const known = await sql.validatorsOf(this.db, domain);
    const [fetchedAdagents, fetchedBrand] = await Promise.all([
      fetchDocument(this.fetcher, this.pacer, domain, 'adagents_json', this.config, known.adagents_json),
      fetchDocument(this.fetcher, this.pacer, domain, 'brand_json', this.config, known.brand_json),
    ]);
    const now = this.clock.now();
    // An adagents.json not modified since the document the graph holds: only the times move.
    const hash = known.adagents_json?.hash;
    const unchanged =
      fetchedAdagents.kind === 'unchanged' && hash !== undefined && (await touchIfCurrent(this.db, domain, hash, now));
    const adagents = unchanged
      ? fetchedAdagents
      : await this.settle(domain, 'adagents_json', fetchedAdagents, known.adagents_json);
    const brand = await this.settle(domain, 'brand_json', fetchedBrand, known.brand_json);
    let events = 0;
    let properties = 0;
    let agents = 0;
    if (adagents.kind === 'found') {
      const projection = projectAdagents(domain, adagents.url, adagents.document);
      properties = projection.properties.length;
      agents = new Set(projection.authorizations.map((a) => a.agent_url_canonical)).size;
      if (adagents.validators) adagents.validators = { ...adagents.validators, hash: projection.document_hash };
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
    const problem = adagents.kind === 'found' || adagents.kind === 'unchanged' ? undefined : adagents.reason;
    const adagentsFetch = manifestFetch('adagents_json', adagents, known.adagents_json);
    const brandFetch = manifestFetch('brand_json', brand, known.brand_json);
    await sql.recordCrawl(this.db, {
      domain,
      nextAt: next,
      failures,
      outcome: adagentsFetch.outcome,
      error: problem ?? null,
      crawledAt: now,
      fetches: [adagentsFetch, brandFetch],
    });
    const report = {
      domain,
      adagents: adagentsFetch.outcome,
      brand: brandFetch.outcome,
      unchanged,
      events,
      properties,
      agents,
      problem,
      nextCrawlAt: next,
    };
    this.onReport(report);
    return report;
  }

  /**
   * A 304 where the graph may have moved on since (or for a brand.json, which the crawl always
   * re-applies): the document is the one stored when its validators were kept, so it is applied
   * from there; without one stored, it is fetched again unconditionally.
   */
  private async settle(
    domain: string,
    kind: DocumentKind,
    outcome: DocumentOutcome,
    known: Validators | undefined,
  ): Promise<DocumentOutcome> {
    if (outcome.kind !== 'unchanged') return outcome;
    const stored = await storedDocument(this.db, domain, kind);
    if (!stored) return fetchDocument(this.fetcher, this.pacer, domain, kind, this.config);
    const validators = known ? { validators: known } : {};
    return { kind: 'found', url: outcome.url, document: stored.document, chain: outcome.chain, ...validators };
  }
}
