import type { Config } from '../../config.ts';
import { perIpAndPerUser, type RateLimitRule } from '../../http/rate-limit/rules.ts';

/** Each tool its own budget per IP: validating may fetch a domain and ask its agents; creating and looking up are cheap but unbounded otherwise. */
export function toolLimit(config: Config, tool: string): RateLimitRule[] {
  return [{ name: `adagents-tools-${tool}`, max: config.limits.adagentsToolsPerMinute, windowSeconds: 60, by: 'ip' }];
}

/** Per IP for anonymous callers, per user or key with a credential, with a ceiling per IP, as the agent probes. */
export function validatePublisherLimits(config: Config): RateLimitRule[] {
  return perIpAndPerUser(
    'validate-publisher',
    config.limits.validatePublisherPerMinute,
    config.limits.validatePublisherPerMinute,
  );
}

/** How long a publisher report is kept per domain, and how many. */
export const reportCache = { ttlMs: 60_000, entries: 1_000, maxBytes: 16 * 1024 * 1024 };
