import { Redis } from 'ioredis';
import type { CounterStore } from './counter-store.ts';

export interface RedisCountersOptions {
  /** Put before every key this store writes, after the URL's own `keyPrefix` if it has one. */
  namespace?: string;
  /** Connection errors (Redis down, refused, timed out); the client keeps reconnecting. */
  onError?: (err: Error) => void;
}

/**
 * Counters in Redis, for deployments that would rather not write a row per limited request.
 * A window starts at its key's first hit and ends when the key expires; each hit is one atomic
 * round trip (a Lua script run by EVALSHA: INCR, PEXPIRE on the first hit, PTTL).
 *
 * `url` is a `redis://` or `rediss://` URL; ioredis takes its options from the query string too,
 * e.g. `?keyPrefix=staging:` to keep instances that share a Redis apart.
 */
export function redisCounters(url: string, options: RedisCountersOptions = {}): CounterStore {
  const namespace = options.namespace ?? 'ap:rate-limit:';
  const redis = new Redis(url, {
    // A request waits for at most one reconnection and two seconds, then fails, rather than
    // queueing behind an unreachable Redis.
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 2_000,
  }) as CountingRedis;
  redis.on('error', (err: Error) => options.onError?.(err));
  redis.defineCommand(HIT_COMMAND, { numberOfKeys: 1, lua: HIT });
  return {
    async hit(key, windowSeconds) {
      const [hits, ttlMs] = await redis[HIT_COMMAND](`${namespace}${key}`, windowSeconds * 1000);
      return { hits, retryAfterSeconds: Math.ceil(ttlMs / 1000) };
    },
    async close() {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

const HIT_COMMAND = 'apRateLimitHit';
type CountingRedis = Redis & { [HIT_COMMAND]: (key: string, windowMs: number) => Promise<[number, number]> };

// A key that has somehow lost its expiry (PTTL -1) gets one again, so it cannot count forever.
const HIT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {hits, ttl}`;
