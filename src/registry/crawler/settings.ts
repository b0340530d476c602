import { flag, fraction, integer, perWindow, settings, type Loaded } from '../../settings.ts';

/** The crawler (registry spec section 5): its queue worker, schedule and fetch limits. */
export const crawlerSettings = settings({
  /** Whether this instance runs the queue worker. */
  worker: {
    env: 'CRAWL_WORKER',
    default: 'true',
    meaning: 'run the crawl queue worker in this instance (true or false)',
    parse: flag,
  },
  intervalSeconds: {
    env: 'CRAWL_INTERVAL_SECONDS',
    default: '86400',
    meaning: 'seconds between re-crawls of a domain (jittered)',
    parse: integer(60, 365 * 86400),
  },
  /** Spread, as a fraction of the delay, so domains crawled together drift apart. */
  jitter: {
    env: 'CRAWL_JITTER',
    default: '0.1',
    meaning: 'spread of re-crawl times, as a fraction of the interval (0 to 0.5)',
    parse: fraction(0, 0.5),
  },
  /** First retry delay after a transient failure; doubles with each further one, up to the interval. */
  retryBaseSeconds: {
    env: 'CRAWL_RETRY_BASE_SECONDS',
    default: '60',
    meaning: 'first retry delay after a timeout, 5xx or 429; doubled on each further failure, up to the interval',
    parse: integer(1, 86400),
  },
  concurrency: {
    env: 'CRAWL_CONCURRENCY',
    default: '16',
    meaning: 'domains one instance crawls at once',
    parse: integer(1, 1000),
  },
  /** Least gap between two requests to one host, from this instance. */
  hostDelayMs: {
    env: 'CRAWL_HOST_DELAY_MS',
    default: '1000',
    meaning: 'least gap between two requests one instance sends to the same host',
    parse: integer(0, 60_000),
  },
  timeoutMs: {
    env: 'CRAWL_TIMEOUT_MS',
    default: '10000',
    meaning: 'time allowed for fetching one adagents.json or brand.json',
    parse: integer(100, 120_000),
  },
  maxBytes: {
    env: 'CRAWL_MAX_BYTES',
    default: '1048576',
    meaning: 'largest adagents.json or brand.json accepted',
    parse: integer(1024, 64 * 1024 * 1024),
  },
  /** authoritative_location (and brand.json house) hops followed before giving up. */
  maxHops: {
    env: 'CRAWL_MAX_HOPS',
    default: '3',
    meaning: 'authoritative_location hops followed before a file is refused',
    parse: integer(0, 10),
  },
  pollSeconds: {
    env: 'CRAWL_POLL_SECONDS',
    default: '5',
    meaning: 'how often the crawl worker looks for due domains',
    parse: integer(1, 3600),
  },
  /** How long a claimed crawl is a worker's: one that died is taken over once it lapses. */
  leaseSeconds: {
    env: 'CRAWL_LEASE_SECONDS',
    default: '600',
    meaning:
      'how long a claimed crawl stays a worker’s; a dead worker’s is crawled again once it lapses (longer than any crawl)',
    parse: integer(1, 86400),
  },
});

export type CrawlerConfig = Loaded<typeof crawlerSettings>;

/** The crawl request's limits (spec section 8). */
export const crawlerLimits = settings({
  crawlRequestsPerHourPerPrincipal: {
    env: 'RATE_LIMIT_CRAWL_REQUESTS_PER_HOUR',
    default: '30',
    meaning: 'crawl requests per hour per user or key',
    parse: perWindow,
  },
  /** Seconds during which a domain may be requested only once, by anyone. */
  crawlRequestDomainWindowSeconds: {
    env: 'RATE_LIMIT_CRAWL_DOMAIN_SECONDS',
    default: '300',
    meaning: 'seconds during which one domain may be requested for crawling once',
    parse: integer(1, 86400),
  },
});

export type CrawlerLimits = Loaded<typeof crawlerLimits>;
