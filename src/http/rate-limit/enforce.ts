import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  onResponseHookHandler,
  onSendHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import { systemClock, type Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { normalizeDomain } from '../../protocol/domain.ts';
import { ApError } from '../../protocol/errors.ts';
import type { CounterStore } from './counter-store.ts';
import { databaseCounters } from './database-counters.ts';
import { KeyTurns } from './key-turns.ts';
import { redisCounters } from './redis-counters.ts';
import type { CallerOf, RateLimitRule } from './rules.ts';

/**
 * Where the logs live: Redis when `REDIS_URL` is configured, else the database. Either way they
 * are shared by every instance, so a limit holds across all of them.
 */
export function openCounterStore(
  config: Pick<Config, 'redisUrl'>,
  db: Database,
  log?: FastifyBaseLogger,
  clock: Clock = systemClock,
): CounterStore {
  if (!config.redisUrl) return databaseCounters(db, { now: () => clock.now().getTime() });
  return redisCounters(config.redisUrl, {
    onError: (err) => log?.warn({ err }, 'rate-limit counters: Redis connection error'),
  });
}

interface Held {
  key: string;
  slot: string;
  /** Ends this request's turn at its key (`counts: 'accepted'` rules). */
  release?: () => void;
}

// How long a request waits for those ahead of it at a held place (see KeyTurns) before it is
// judged on what the store says: longer than any route holding one takes to answer.
const heldPlaceWaitMs = 30_000;

/**
 * Sliding-window limits in `store`: a request passes a rule when fewer than `max` requests were
 * counted in the `windowSeconds` before it, and a refusal's `Retry-After` is when one of them
 * leaves the window (sooner, if a place held by a request still running is given back). A request refused by any rule counts against none. Attached only to
 * routes that declare limits, as their first preHandler: after authentication (so per-principal
 * keys are known) and body parsing (so a rule can key on the body). `callerOf` says whose request it
 * is (auth's `rateLimitCaller`: http/ imports nothing of auth/). The store closes with the app.
 */
export function enforceRateLimits(
  app: FastifyInstance,
  store: CounterStore,
  callerOf: CallerOf,
  clock: Clock = systemClock,
): void {
  // Places held for `counts: 'accepted'` rules until the answer is known, and the turns of their keys.
  const pending = new WeakMap<FastifyRequest, Held[]>();
  const turns = new KeyTurns();
  const giveBack = async (request: FastifyRequest, held: Held[]) => {
    await Promise.all(
      held.map(({ key, slot }) =>
        store
          .giveBack(key, slot)
          .catch((err: unknown) => request.log.warn({ err, key }, 'rate limit: could not give a place back')),
      ),
    );
  };
  const release = (held: Held[]) => held.forEach((h) => h.release?.());
  app.addHook('onRoute', (route) => {
    const rules = route.config?.rateLimit;
    if (!rules?.length) return;
    const limit: preHandlerHookHandler = async (request) => {
      const now = clock.now().getTime();
      const taken: Array<Held & { rule: RateLimitRule }> = [];
      for (const rule of rules) {
        const subject = keyOf(rule, request, callerOf);
        if (subject === undefined) continue;
        const key = `${rule.name}:${subject}`;
        const turn = rule.counts === 'accepted' ? await turns.take(key, heldPlaceWaitMs) : undefined;
        // Judged when its turn comes, so the window is the one the requests ahead of it left.
        const result = await store
          .take(key, rule.max, rule.windowSeconds * 1000, turn ? clock.now().getTime() : now)
          .catch((err: unknown) => {
            // The counters' store is away (Redis down): limits are anti-abuse, not correctness, so
            // the request goes through uncounted rather than failing; the log says so each time.
            request.log.warn({ err, key }, 'rate limit: counters unreachable; request let through uncounted');
            return undefined;
          });
        if (result === undefined) {
          turn?.();
          continue;
        }
        if (!result.taken) {
          turn?.();
          await giveBack(request, taken);
          release(taken);
          throw new ApError(
            'rate_limited',
            `Rate limit exceeded: ${rule.max} requests per ${describe(rule.windowSeconds)}.`,
            {
              retryAfter: Math.max(1, Math.ceil(result.retryAfterMs / 1000)),
            },
          );
        }
        taken.push({ key, slot: result.slot, rule, ...(turn ? { release: turn } : {}) });
      }
      const held = taken.filter((t) => t.rule.counts === 'accepted');
      if (held.length) pending.set(request, held);
    };
    // Before the answer goes out, so a client that retries at once finds the place free again.
    const settle: onSendHookHandler = async (request, reply) => {
      const held = pending.get(request);
      if (!held) return;
      pending.delete(request);
      if (reply.statusCode >= 400) await giveBack(request, held);
      release(held);
    };
    // A request that ends without an answer sent (the client went away first) ends its turns too.
    const settleUnanswered: onResponseHookHandler = async (request) => {
      const held = pending.get(request);
      if (!held) return;
      pending.delete(request);
      await giveBack(request, held);
      release(held);
    };
    route.preHandler = [limit, ...(route.preHandler ? [route.preHandler].flat() : [])];
    route.onSend = [settle, ...(route.onSend ? [route.onSend].flat() : [])];
    route.onResponse = [settleUnanswered, ...(route.onResponse ? [route.onResponse].flat() : [])];
  });
  app.addHook('onClose', async () => store.close());
}

function keyOf(rule: RateLimitRule, request: FastifyRequest, callerOf: CallerOf): string | undefined {
  if (typeof rule.by === 'function') return rule.by(request, callerOf(request));
  switch (rule.by) {
    case 'ip':
      return `ip:${request.ip}`;
    case 'principal': {
      const caller = callerOf(request);
      return caller ? `principal:${caller.principal}` : undefined;
    }
    case 'organization': {
      const organization = callerOf(request)?.organization;
      return organization === undefined ? undefined : `org:${organization}`;
    }
    case 'domain': {
      const domain = domainOf(request);
      return domain === undefined ? undefined : `domain:${domain}`;
    }
  }
}

/** The request's domain as every endpoint normalizes it, or undefined when it has no valid one. */
function domainOf(request: FastifyRequest): string | undefined {
  const field = (from: unknown) =>
    from && typeof from === 'object' && 'domain' in from && typeof from.domain === 'string' ? from.domain : undefined;
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
