import type { Config } from '../config.ts';
import type { RateLimitRule } from '../http/rate-limit.ts';

/** The spec's limits (section 8), shared by the routes that have them. */
export function bulkResolveLimit(config: Config, kind: 'brands' | 'properties'): RateLimitRule {
  return { name: `resolve-bulk-${kind}`, max: config.limits.bulkResolvePerMinute, windowSeconds: 60, by: 'ip' };
}

export function saveLimits(config: Config): RateLimitRule[] {
  return [
    { name: 'save', max: config.limits.savesPerHourPerPrincipal, windowSeconds: 3600, by: 'principal' },
    { name: 'save-org', max: config.limits.savesPerHourPerOrganization, windowSeconds: 3600, by: 'organization' },
    { name: 'save-ip', max: config.limits.savesPerHourPerIp, windowSeconds: 3600, by: 'ip' },
  ];
}
