import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { CounterStore } from './counter-store.ts';

export interface RedisCountersOptions {
  /** Put before every key this store writes, after the URL's own `keyPrefix` if it has one. */
  namespace?: string;
  /** Connection errors (Redis down, refused, timed out); the client keeps reconnecting. */
  onError?: (err: Error) => void;
  /** How long connecting may take before it is retried; 2 seconds unless a test says otherwise. */
  connectTimeoutMs?: number;
}

/** The client's states after a connection was lost, before it is back. */
const lost = new Set(['reconnecting', 'close', 'end']);

/**
 * Sliding logs in Redis, for deployments that would rather not write a row per limited request:
 * one sorted set per key, scored by the request's time. Each request is one atomic round trip (a
 * Lua script run by EVALSHA: drop the hits that left the window, count, add this one if there is
 * room). The key expires a window after its newest hit, when it could no longer refuse anything.
 *
 * `url` is a `redis://` or `rediss://` URL; ioredis takes its options from the query string too,
 * e.g. `?keyPrefix=staging:` to keep instances that share a Redis apart.
 */
export function redisCounters(url: string, options: RedisCountersOptions = {}): CounterStore {
  const namespace = options.namespace ?? 'ap:rate-log:';
  const redis = new Redis(url, {
    // A request waits for at most one reconnection and two seconds, then fails, rather than
    // queueing behind an unreachable Redis.
    maxRetriesPerRequest: 1,
    connectTimeout: options.connectTimeoutMs ?? 2_000,
    commandTimeout: 2_000,
    // Connect on the first request, not while the server starts: start-up work that holds the
    // event loop longer than the connect timeout would fire it on a connection that had in fact
    // succeeded, and the first requests would go through uncounted.
    lazyConnect: true,
  }) as CountingRedis;
  redis.on('error', (err: Error) => options.onError?.(err));
  redis.defineCommand(TAKE_COMMAND, { numberOfKeys: 1, lua: TAKE });
  return {
    async take(key, max, windowMs, nowMs) {
      if (max < 1) return { taken: false, retryAfterMs: windowMs };
      // Once a connection was lost, fail at once until it is back rather than wait on each
      // reconnection (the limits then let requests through uncounted, see enforce.ts).
      if (lost.has(redis.status)) throw new Error(`Redis is unreachable (${redis.status})`);
      const now = Math.floor(nowMs);
      // Unique within the set: two requests in one millisecond are two entries.
      const slot = `${now}:${randomBytes(6).toString('hex')}`;
      const [taken, retryAfterMs] = await redis[TAKE_COMMAND](`${namespace}${key}`, now, windowMs, max, slot);
      return taken === 1 ? { taken: true, slot } : { taken: false, retryAfterMs };
    },
    async giveBack(key, slot) {
      await redis.zrem(`${namespace}${key}`, slot);
    },
    async close() {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

const TAKE_COMMAND = 'apRateLimitTake';
type CountingRedis = Redis & {
  [TAKE_COMMAND]: (
    key: string,
    nowMs: number,
    windowMs: number,
    max: number,
    slot: string,
  ) => Promise<[number, number]>;
};

// ARGV: now (ms), window (ms), max, this request's member. Returns {1, 0} when counted, else
// {0, ms until the hit that puts the log at max leaves the window}.
const TAKE = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < max then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, 0}
end
local edge = redis.call('ZRANGE', KEYS[1], count - max, count - max, 'WITHSCORES')
return {0, tonumber(edge[2]) + window - now}`;
