import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { Database } from '../db/database.ts';
import { ApError } from '../protocol/errors.ts';
import '../auth/principal.ts';

/** A limit a route declares: at most `max` requests per `windowSeconds` for each key. */
export interface RateLimitRule {
  /** Names the counter, so two routes can share one budget by sharing a name. */
  name: string;
  max: number;
  windowSeconds: number;
  /** Whose budget a request spends; undefined skips the rule for that request. */
  by: 'ip' | 'principal' | 'organization' | ((request: FastifyRequest) => string | undefined);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    rateLimit?: RateLimitRule[];
  }
}

/**
 * Fixed-window counters in the database, so a limit holds across every instance. One upsert per
 * rule per request; the window's end gives `Retry-After`. Attached only to routes that declare
 * limits, after authentication so per-principal keys are known.
 */
export function enforceRateLimits(app: FastifyInstance, db: Database): void {
  app.addHook('onRoute', (route) => {
    const rules = route.config?.rateLimit;
    if (!rules?.length) return;
    const limit: preHandlerHookHandler = async (request) => {
      for (const rule of rules) {
        const subject = keyOf(rule, request);
        if (subject === undefined) continue;
        const [row] = await db.query<{ hits: number; retry_after: number }>(HIT, [`${rule.name}:${subject}`, rule.windowSeconds]);
        if (row && row.hits > rule.max) {
          throw new ApError('rate_limited', `Rate limit exceeded: ${rule.max} requests per ${describe(rule.windowSeconds)}.`, {
            retryAfter: Math.max(1, row.retry_after),
          });
        }
      }
    };
    const existing = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [limit, ...existing];
  });

  // Passed windows are useless; clear them now and then so the table stays small.
  const sweep = setInterval(() => void db.query(SWEEP).catch(() => {}), 60_000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
}

const HIT = `
  insert into rate_limit_counters as c (key, window_start, hits)
  values ($1, to_timestamp(floor(extract(epoch from now()) / $2) * $2), 1)
  on conflict (key, window_start) do update set hits = c.hits + 1
  returning hits, ceil(extract(epoch from window_start) + $2 - extract(epoch from now()))::int as retry_after`;

const SWEEP = `delete from rate_limit_counters where window_start < now() - interval '2 days'`;

function keyOf(rule: RateLimitRule, request: FastifyRequest): string | undefined {
  if (typeof rule.by === 'function') return rule.by(request);
  if (rule.by === 'ip') return `ip:${request.ip}`;
  if (rule.by === 'principal') return request.principal ? `principal:${request.principal.kind}:${request.principal.subject}` : undefined;
  return request.principal?.organization ? `org:${request.principal.organization.organizationId}` : undefined;
}

function describe(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? 'hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}
