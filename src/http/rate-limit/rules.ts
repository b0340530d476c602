import type { FastifyRequest } from 'fastify';

/**
 * Who made a request, as far as the limits key on it; undefined for an anonymous caller. http/
 * sits below auth/, so the composition root hands over how auth answers it (see `CallerOf`).
 */
export interface RateLimitCaller {
  /** Stable across the caller's requests, whatever credential it shows. */
  principal: string;
  /** The organization the caller acts for, if any. */
  organization?: string;
}

/** Reads a request's caller: auth's `rateLimitCaller`, or a stand-in in a test. */
export type CallerOf = (request: FastifyRequest) => RateLimitCaller | undefined;

/** A limit a route declares: at most `max` requests in any `windowSeconds`-long span, for each key. */
export interface RateLimitRule {
  /** Names the log, so two routes can share one budget by sharing a name. */
  name: string;
  max: number;
  windowSeconds: number;
  /**
   * Whose budget a request spends; undefined skips the rule for that request. `domain` is the
   * normalized `domain` of the body (else of the query string); a request without a valid one
   * skips the rule, and the route's own validation refuses it.
   */
  by:
    | 'ip'
    | 'principal'
    | 'organization'
    | 'domain'
    | ((request: FastifyRequest, caller: RateLimitCaller | undefined) => string | undefined);
  /**
   * `accepted`: only requests the route accepts (answered below 400) count, so a refused one
   * spends nobody's budget. The request holds its place while it runs and gives it back if it is
   * refused, so concurrent requests still cannot pass the limit; in one process, those arriving
   * meanwhile wait for its answer and are then judged on the window it left (key-turns.ts).
   * Default `every`: every request
   * that gets past the limits counts, whatever the route answers (sign-in guesses, say).
   */
  counts?: 'every' | 'accepted';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    rateLimit?: RateLimitRule[];
  }
}

/** Users (or keys) behind one address together get at most this many users' budgets. */
const usersPerAddress = 4;

/** The rules of a budget kept per IP for anonymous callers and per user for others, with a ceiling per IP for all. */
export function perIpAndPerUser(name: string, perIp: number, perUser: number): RateLimitRule[] {
  return [
    {
      name: `${name}-ip`,
      max: perIp,
      windowSeconds: 60,
      by: (request, caller) => (caller ? undefined : `ip:${request.ip}`),
    },
    { name, max: perUser, windowSeconds: 60, by: 'principal' },
    { name: `${name}-address`, max: perUser * usersPerAddress, windowSeconds: 60, by: 'ip' },
  ];
}
