import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** The local Redis the tests use. */
export const redisBaseUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A Redis URL whose keys all start with a prefix of its own (ioredis takes `keyPrefix` from the
 * query string), so test files and runs sharing the local Redis never see each other's counters;
 * `cleanup` deletes exactly those keys.
 */
export function isolatedRedis(): { url: string; prefix: string; client: () => Redis; cleanup(): Promise<void> } {
  const prefix = `ap-test:${process.pid}:${randomBytes(4).toString('hex')}:`;
  const url = new URL(redisBaseUrl);
  url.searchParams.set('keyPrefix', prefix);
  const clients: Redis[] = [];
  return {
    url: url.href,
    prefix,
    /** A plain client (no prefix) for looking at the keys directly. */
    client() {
      const client = new Redis(redisBaseUrl, { lazyConnect: false });
      clients.push(client);
      return client;
    },
    async cleanup() {
      const redis = new Redis(redisBaseUrl);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
          if (keys.length) await redis.del(...keys);
          cursor = next;
        } while (cursor !== '0');
      } finally {
        await redis.quit();
        await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
      }
    },
  };
}
