import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { ProbeCache } from '../../http/probe-cache.ts';
import { perIpAndPerUser, type RateLimitRule } from '../../http/rate-limit/rules.ts';

/**
 * One budget for the three probing endpoints: each request makes the registry call someone's
 * agent, several requests each. Callers without a credential spend their IP's; a user or key its
 * own instead, so people behind one address do not share it; and one address, whatever the
 * credentials, at most a few users' worth, so many keys do not multiply what one host can ask.
 */
export function probeLimits(config: Config): RateLimitRule[] {
  return perIpAndPerUser('agent-probe', config.limits.probesPerMinutePerIp, config.limits.probesPerMinutePerPrincipal);
}

/** How much of an agent one probe may take. */
export const probeCaps = {
  /** Each request to the agent. */
  requestTimeoutMs: 5_000,
  /** The whole probe: connecting over both protocols, then the task calls. */
  deadlineMs: 15_000,
  /** Each answer: cards, tool lists, capabilities. */
  maxBytes: 1024 * 1024,
  /** A task's answer (a catalog of products or formats can be long). */
  maxTaskBytes: 4 * 1024 * 1024,
  /** How long an answer is kept and given again to the same question. */
  cacheTtlMs: 60_000,
  cacheEntries: 1_000,
  /** Of kept answers, as JSON, per endpoint. */
  cacheBytes: 64 * 1024 * 1024,
  /** Schema findings shown of a task's answer. */
  schemaIssues: 50,
};

/** The answers one probing endpoint keeps, within `probeCaps`. */
export function probeCache<T>(clock: Clock): ProbeCache<T> {
  return new ProbeCache<T>(clock, {
    ttlMs: probeCaps.cacheTtlMs,
    entries: probeCaps.cacheEntries,
    maxBytes: probeCaps.cacheBytes,
  });
}
