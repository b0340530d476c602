import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CounterStore } from '../../../src/http/rate-limit/counter-store.ts';
import { redisCounters } from '../../../src/http/rate-limit/redis-counters.ts';
import { isolatedRedis } from './support.ts';

describe('[redis] rate-limit counters', () => {
  const redis = isolatedRedis();
  const stores: CounterStore[] = [];
  const open = () => {
    const store = redisCounters(redis.url);
    stores.push(store);
    return store;
  };
  let store: CounterStore;
  before(() => {
    store = open();
  });
  after(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await redis.cleanup();
  });

  it('counts hits per key, with a retry-after within the window', async () => {
    for (let i = 1; i <= 3; i++) {
      const hit = await store.hit('count:a', 60);
      assert.equal(hit.hits, i);
      assert.ok(hit.retryAfterSeconds >= 59 && hit.retryAfterSeconds <= 60, `retry after ${hit.retryAfterSeconds}`);
    }
    assert.equal((await store.hit('count:b', 60)).hits, 1, 'another key has its own counter');
    assert.equal((await store.hit('count:a', 3600)).hits, 4, 'the window is the first hit’s; a later hit does not restart it');
  });

  it('keeps each counter under the URL’s key prefix and the store’s namespace, expiring with its window', async () => {
    await store.hit('ttl', 30);
    const raw = redis.client();
    const ttl = await raw.pttl(`${redis.prefix}ap:rate-limit:ttl`);
    assert.ok(ttl > 28_000 && ttl <= 30_000, `PTTL ${ttl}`);
    assert.equal(await raw.exists('ap:rate-limit:ttl'), 0, 'nothing is written outside the prefix');
  });

  it('starts a new window once the last one has passed', async () => {
    const first = await store.hit('rollover', 1);
    assert.equal(first.hits, 1);
    assert.equal(first.retryAfterSeconds, 1);
    assert.equal((await store.hit('rollover', 1)).hits, 2);
    await sleep(1_100);
    const next = await store.hit('rollover', 1);
    assert.equal(next.hits, 1);
    assert.equal(next.retryAfterSeconds, 1);
  });

  it('gives a counter that lost its expiry a new one, so it cannot count forever', async () => {
    const raw = redis.client();
    await raw.set(`${redis.prefix}ap:rate-limit:no-expiry`, '5');
    const hit = await store.hit('no-expiry', 10);
    assert.equal(hit.hits, 6);
    assert.equal(hit.retryAfterSeconds, 10);
    assert.ok((await raw.pttl(`${redis.prefix}ap:rate-limit:no-expiry`)) > 0);
  });

  it('counts every concurrent hit once, across separate clients (as separate instances would)', async () => {
    const other = open();
    const hits = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? store : other).hit('concurrent', 60)));
    assert.deepEqual(
      hits.map((h) => h.hits).sort((a, b) => a - b),
      Array.from({ length: 60 }, (_, i) => i + 1),
    );
  });

  it('fails a hit promptly, and reports the error, when Redis cannot be reached', async () => {
    const errors: Error[] = [];
    const down = redisCounters('redis://127.0.0.1:1', { onError: (err) => errors.push(err) });
    try {
      const started = Date.now();
      await assert.rejects(down.hit('unreachable', 60));
      assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
      assert.ok(errors.length > 0);
    } finally {
      await down.close();
    }
  });
});
