import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProbeCache } from '../../src/http/probe-cache.ts';
import { ManualClock } from '../support/clock.ts';

describe('ProbeCache', () => {
  const counting = () => {
    const calls = { n: 0 };
    return { calls, probe: async () => ++calls.n };
  };

  it('asks once for questions asked together, and keeps the answer for its TTL', async () => {
    const clock = new ManualClock();
    const cache = new ProbeCache<number>(clock, { ttlMs: 60_000, entries: 10, maxBytes: 1000 });
    let release!: (n: number) => void;
    let asked = 0;
    const slow = () => new Promise<number>((resolve) => ((release = resolve), asked++));
    const together = [cache.get('a', slow), cache.get('a', slow)];
    release(7);
    assert.deepEqual(await Promise.all(together), [7, 7]);
    assert.equal(asked, 1);
    clock.advance(59_999);
    assert.equal(await cache.get('a', slow), 7);
    clock.advance(1);
    const { calls, probe } = counting();
    assert.equal(await cache.get('a', probe), 1, 'asked again once the TTL is over');
    assert.equal(calls.n, 1);
  });

  it('keeps no failure, and at most its number of entries, oldest out first', async () => {
    const cache = new ProbeCache<number>(new ManualClock(), { ttlMs: 60_000, entries: 2, maxBytes: 1000 });
    await assert.rejects(
      cache.get('down', () => Promise.reject(new Error('down'))),
      /down/,
    );
    assert.equal(await cache.get('down', async () => 1), 1, 'a failure is not kept');
    await cache.get('b', async () => 2);
    await cache.get('c', async () => 3);
    assert.equal(await cache.get('down', async () => 4), 4, 'the oldest went out');
    assert.equal(await cache.get('c', async () => 5), 3);
  });

  it('keeps at most its bytes of answers (as JSON), and none larger than all of them', async () => {
    const cache = new ProbeCache<string>(new ManualClock(), { ttlMs: 60_000, entries: 10, maxBytes: 25 });
    await cache.get('a', async () => 'a'.repeat(10)); // 12 bytes as JSON
    await cache.get('b', async () => 'b'.repeat(10));
    await cache.get('c', async () => 'c'.repeat(10));
    assert.equal(await cache.get('a', async () => 'again'), 'again', 'a went out to make room for c');
    assert.equal(await cache.get('c', async () => 'again'), 'c'.repeat(10));
    await cache.get('huge', async () => 'h'.repeat(30));
    assert.equal(await cache.get('huge', async () => 'H'.repeat(30)), 'H'.repeat(30), 'too large to keep');
    assert.equal(await cache.get('c', async () => 'again'), 'c'.repeat(10), 'and nothing was pushed out for it');
  });
});
