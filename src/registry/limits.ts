import type { Config } from '../config.ts';
import type { RateLimitRule } from '../http/rate-limit/rules.ts';

/** The spec's limits (section 8), shared by the routes that have them. */
export function bulkResolveLimit(config: Config, kind: 'brands' | 'properties' | 'policies'): RateLimitRule {
  return { name: `resolve-bulk-${kind}`, max: config.limits.bulkResolvePerMinute, windowSeconds: 60, by: 'ip' };
}

/**
 * The property check takes a hundred times a bulk resolve's domains and stores a report, so it is
 * limited per IP at the bulk resolves' rate (RATE_LIMIT_BULK_RESOLVE_PER_MINUTE), in its own budget.
 */
export function propertyCheckLimit(config: Config): RateLimitRule {
  return { name: 'properties-check', max: config.limits.bulkResolvePerMinute, windowSeconds: 60, by: 'ip' };
}

export function saveLimits(config: Config, budget = 'save'): RateLimitRule[] {
  return [
    { name: budget, max: config.limits.savesPerHourPerPrincipal, windowSeconds: 3600, by: 'principal' },
    { name: `${budget}-org`, max: config.limits.savesPerHourPerOrganization, windowSeconds: 3600, by: 'organization' },
    { name: `${budget}-ip`, max: config.limits.savesPerHourPerIp, windowSeconds: 3600, by: 'ip' },
  ];
}

/** Challenges and verifications get the save limits' sizes but their own budget: proving a domain must not use up the saves it enables. */
export function ownershipLimits(config: Config): RateLimitRule[] {
  return saveLimits(config, 'ownership');
}
