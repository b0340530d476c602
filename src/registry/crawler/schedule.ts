/** When a crawled domain is next due. */

export interface ScheduleConfig {
  intervalSeconds: number;
  /** First retry delay after a transient failure; doubles with each further one, up to the interval. */
  retryBaseSeconds: number;
  /** Spread, as a fraction of the delay, so domains crawled together drift apart. */
  jitter: number;
}

/**
 * A definite answer (found, absent, invalid) waits the interval; a transient failure backs off,
 * and never retries sooner than the publisher's own Retry-After.
 */
export function nextCrawlAt(
  now: Date,
  config: ScheduleConfig,
  outcome: { transient: boolean; failures: number; retryAfterSeconds?: number },
  random = Math.random,
): Date {
  const base = outcome.transient
    ? Math.min(config.retryBaseSeconds * 2 ** (outcome.failures - 1), config.intervalSeconds)
    : config.intervalSeconds;
  const spread = 1 + config.jitter * (2 * random() - 1);
  const seconds = Math.max(base * spread, outcome.transient ? (outcome.retryAfterSeconds ?? 0) : 0);
  return new Date(now.getTime() + Math.round(seconds * 1000));
}
