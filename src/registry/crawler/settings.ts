import { flag, fraction, integer, reader, type Env, type Setting } from '../../settings.ts';

/** The crawler (registry spec section 5): its queue worker, schedule and fetch limits. */
export interface CrawlerConfig {
  /** Whether this instance runs the queue worker. */
  worker: boolean;
  intervalSeconds: number;
  /** Spread, as a fraction of the delay, so domains crawled together drift apart. */
  jitter: number;
  /** First retry delay after a transient failure; doubles with each further one, up to the interval. */
  retryBaseSeconds: number;
  concurrency: number;
  /** Least gap between two requests to one host, from this instance. */
  hostDelayMs: number;
  timeoutMs: number;
  maxBytes: number;
  /** authoritative_location (and brand.json house) hops followed before giving up. */
  maxHops: number;
  pollSeconds: number;
}

/** The crawl request's limits (spec section 8). */
export interface CrawlerLimits {
  crawlRequestsPerHourPerPrincipal: number;
  /** Seconds during which a domain may be requested only once, by anyone. */
  crawlRequestDomainWindowSeconds: number;
}

export const crawlerSettings = {
  CRAWL_WORKER: { default: 'true', meaning: 'run the crawl queue worker in this instance (true or false)' },
  CRAWL_INTERVAL_SECONDS: { default: '86400', meaning: 'seconds between re-crawls of a domain (jittered)' },
  CRAWL_JITTER: { default: '0.1', meaning: 'spread of re-crawl times, as a fraction of the interval (0 to 0.5)' },
  CRAWL_RETRY_BASE_SECONDS: {
    default: '60',
    meaning: 'first retry delay after a timeout, 5xx or 429; doubled on each further failure, up to the interval',
  },
  CRAWL_CONCURRENCY: { default: '16', meaning: 'domains one instance crawls at once' },
  CRAWL_HOST_DELAY_MS: {
    default: '1000',
    meaning: 'least gap between two requests one instance sends to the same host',
  },
  CRAWL_TIMEOUT_MS: { default: '10000', meaning: 'time allowed for fetching one adagents.json or brand.json' },
  CRAWL_MAX_BYTES: { default: '1048576', meaning: 'largest adagents.json or brand.json accepted' },
  CRAWL_MAX_HOPS: { default: '3', meaning: 'authoritative_location hops followed before a file is refused' },
  CRAWL_POLL_SECONDS: { default: '5', meaning: 'how often the crawl worker looks for due domains' },
  RATE_LIMIT_CRAWL_REQUESTS_PER_HOUR: { default: '30', meaning: 'crawl requests per hour per user or key' },
  RATE_LIMIT_CRAWL_DOMAIN_SECONDS: {
    default: '300',
    meaning: 'seconds during which one domain may be requested for crawling once',
  },
} as const satisfies Record<string, Setting>;

export function loadCrawlerSettings(env: Env): CrawlerConfig {
  const get = reader(crawlerSettings, env);
  return {
    worker: flag('CRAWL_WORKER', get('CRAWL_WORKER')),
    intervalSeconds: integer('CRAWL_INTERVAL_SECONDS', get('CRAWL_INTERVAL_SECONDS'), 60, 365 * 86400),
    jitter: fraction('CRAWL_JITTER', get('CRAWL_JITTER'), 0, 0.5),
    retryBaseSeconds: integer('CRAWL_RETRY_BASE_SECONDS', get('CRAWL_RETRY_BASE_SECONDS'), 1, 86400),
    concurrency: integer('CRAWL_CONCURRENCY', get('CRAWL_CONCURRENCY'), 1, 1000),
    hostDelayMs: integer('CRAWL_HOST_DELAY_MS', get('CRAWL_HOST_DELAY_MS'), 0, 60_000),
    timeoutMs: integer('CRAWL_TIMEOUT_MS', get('CRAWL_TIMEOUT_MS'), 100, 120_000),
    maxBytes: integer('CRAWL_MAX_BYTES', get('CRAWL_MAX_BYTES'), 1024, 64 * 1024 * 1024),
    maxHops: integer('CRAWL_MAX_HOPS', get('CRAWL_MAX_HOPS'), 0, 10),
    pollSeconds: integer('CRAWL_POLL_SECONDS', get('CRAWL_POLL_SECONDS'), 1, 3600),
  };
}

export function loadCrawlerLimits(env: Env): CrawlerLimits {
  const get = reader(crawlerSettings, env);
  return {
    crawlRequestsPerHourPerPrincipal: integer(
      'RATE_LIMIT_CRAWL_REQUESTS_PER_HOUR',
      get('RATE_LIMIT_CRAWL_REQUESTS_PER_HOUR'),
      1,
      1e6,
    ),
    crawlRequestDomainWindowSeconds: integer(
      'RATE_LIMIT_CRAWL_DOMAIN_SECONDS',
      get('RATE_LIMIT_CRAWL_DOMAIN_SECONDS'),
      1,
      86400,
    ),
  };
}
