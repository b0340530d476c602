import type { Config } from '../config.ts';
import type { CallerOf, RateLimitRule } from '../http/rate-limit/rules.ts';

/**
 * Password guesses cost scrypt time but are otherwise free; one budget per IP, shared by the
 * dashboard's sign-in and the OAuth sign-in page, so moving between them gains nothing.
 */
export function signInLimit(config: Config): RateLimitRule {
  return { name: 'sign-in', max: config.limits.signInsPerMinutePerIp, windowSeconds: 60, by: 'ip' };
}

/** Whose budgets a request spends: its principal (as the guard set it) and that one's organization. */
export const rateLimitCaller: CallerOf = ({ principal }) =>
  principal && {
    principal: `${principal.kind}:${principal.subject}`,
    ...(principal.organization ? { organization: principal.organization.organizationId } : {}),
  };
