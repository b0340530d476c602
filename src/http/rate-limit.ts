import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { normalizeDomain } from '../protocol/domain.ts';
import { ApError } from '../protocol/errors.ts';
import type { CounterStore } from './rate-limit/counter-store.ts';
import { databaseCounters } from './rate-limit/database-counters.ts';
import { redisCounters } from './rate-limit/redis-counters.ts';
import '../auth/principal.ts';

export type { CounterHit, CounterStore } from './rate-limit/counter-store.ts';

/** A limit a route declares: at most `max` requests per `windowSeconds` for each key. */
export interface RateLimitRule {
  /** Names the counter, so two routes can share one budget by sharing a name. */
  name: string;
  max: number;
  windowSeconds: number;
  /**
   * Whose budget a request spends; undefined skips the rule for that request. `domain` is the
   * normalized `domain` of the body (else of the query string); a request without a valid one
   * skips the rule, and the route's own validation refuses it.
   */
  by: 'ip' | 'principal' | 'organization' | 'domain' | ((request: FastifyRequest) => string | undefined);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    rateLimit?: RateLimitRule[];
  }
}

/**
 * Where the counters live: Redis when `REDIS_URL` is configured, else the database. Either way
 * they are shared by every instance, so a limit holds across all of them.
 */
export function openCounterStore(config: Pick<Config, 'redisUrl'>, db: Database, log?: FastifyBaseLogger): CounterStore {
  if (!config.redisUrl) return databaseCounters(db);
  return redisCounters(config.redisUrl, { onError: (err) => log?.warn({ err }, 'rate-limit counters: Redis connection error') });
}

/**
 * Fixed-window counters in `store`; the window's end gives `Retry-After`. Attached only to routes
 * that declare limits, as their first preHandler: after authentication (so per-principal keys are
 * known) and body parsing (so a rule can key on the body). The store closes with the app.
 */
export function enforceRateLimits(app: FastifyInstance, store: CounterStore): void {
  app.addHook('onRoute', (route) => {
    const rules = route.config?.rateLimit;
    if (!rules?.length) return;
    const limit: preHandlerHookHandler = async (request) => {
      for (const rule of rules) {
        const subject = keyOf(rule, request);
        if (subject === undefined) continue;
        const { hits, retryAfterSeconds } = await store.hit(`${rule.name}:${subject}`, rule.windowSeconds);
        if (hits > rule.max) {
          throw new ApError('rate_limited', `Rate limit exceeded: ${rule.max} requests per ${describe(rule.windowSeconds)}.`, {
            retryAfter: Math.max(1, retryAfterSeconds),
          });
        }
      }
    };
    const existing = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [limit, ...existing];
  });
  app.addHook('onClose', async () => store.close());
}

function keyOf(rule: RateLimitRule, request: FastifyRequest): string | undefined {
  if (typeof rule.by === 'function') return rule.by(request);
  switch (rule.by) {
    case 'ip':
      return `ip:${request.ip}`;
    case 'principal':
      return request.principal ? `principal:${request.principal.kind}:${request.principal.subject}` : undefined;
    case 'organization':
      return request.principal?.organization ? `org:${request.principal.organization.organizationId}` : undefined;
    case 'domain': {
      const domain = domainOf(request);
      return domain === undefined ? undefined : `domain:${domain}`;
    }
  }
}

/** The request's domain as every endpoint normalizes it, or undefined when it has no valid one. */
function domainOf(request: FastifyRequest): string | undefined {
  const field = (from: unknown) => (from && typeof from === 'object' && 'domain' in from && typeof from.domain === 'string' ? from.domain : undefined);
  const raw = field(request.body) ?? field(request.query);
  if (raw === undefined) return undefined;
  try {
    return normalizeDomain(raw);
  } catch {
    return undefined;
  }
}

function describe(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? 'hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}
