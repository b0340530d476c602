import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CounterStore } from '../../../src/http/rate-limit/counter-store.ts';
import { redisCounters } from '../../../src/http/rate-limit/redis-counters.ts';
import { isolatedRedis } from './support.ts';
import { storeContract } from './store-contract.ts';

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

  storeContract(() => store);

  it('keeps each log under the URL’s key prefix and the store’s namespace, expiring a window after its newest hit', async () => {
    await store.take('ttl', 5, 30_000, Date.now());
    const raw = redis.client();
    const ttl = await raw.pttl(`${redis.prefix}ap:rate-log:ttl`);
    assert.ok(ttl > 28_000 && ttl <= 30_000, `PTTL ${ttl}`);
    assert.equal(await raw.exists('ap:rate-log:ttl'), 0, 'nothing is written outside the prefix');
  });

  it('counts concurrent requests from separate clients (as separate instances would) against one log', async () => {
    const other = open();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? store : other).take('concurrent-clients', 45, 60_000, 1_000 + i)),
    );
    assert.equal(results.filter((r) => r.taken).length, 45);
  });

  it('counts the first hit when the process was busy past the connect timeout after opening the store (a server starting)', async () => {
    let timedOut: (err: Error) => void = () => {};
    const connectTimedOut = new Promise<Error>((resolve) => (timedOut = resolve));
    const started = redisCounters(redis.url, { connectTimeoutMs: 50, onError: (err) => timedOut(err) });
    stores.push(started);
    // Start-up work holding the event loop, through the ticks in which a client connecting at once makes its socket.
    for (let tick = 0; tick < 5; tick++) {
      await new Promise(process.nextTick);
      const until = performance.now() + 60;
      while (performance.now() < until);
    }
    // A connection begun during start-up times out as soon as the loop turns, and the client waits to
    // reconnect: the hit comes then.
    const turns = async (n: number) => {
      for (let i = 0; i < n; i++) await new Promise(setImmediate);
    };
    await Promise.race([connectTimedOut.then(() => turns(2)), turns(4)]);
    assert.equal((await started.take('busy-start', 1, 60_000, Date.now())).taken, true);
  });

  it('fails a hit promptly, and reports the error, when Redis cannot be reached', async () => {
    const errors: Error[] = [];
    const down = redisCounters('redis://127.0.0.1:1', { onError: (err) => errors.push(err) });
    try {
      const started = Date.now();
      await assert.rejects(down.take('unreachable', 1, 60_000, Date.now()));
      assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
      assert.ok(errors.length > 0);
    } finally {
      await down.close();
    }
  });
});
