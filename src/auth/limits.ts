import type { Config } from '../config.ts';
import type { RateLimitRule } from '../http/rate-limit.ts';

/**
 * Password guesses cost scrypt time but are otherwise free; one budget per IP, shared by the
 * dashboard's sign-in and the OAuth sign-in page, so moving between them gains nothing.
 */
export function signInLimit(config: Config): RateLimitRule {
  return { name: 'sign-in', max: config.limits.signInsPerMinutePerIp, windowSeconds: 60, by: 'ip' };
}
