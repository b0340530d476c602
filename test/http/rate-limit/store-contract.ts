import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CounterStore } from '../../../src/http/rate-limit/counter-store.ts';

/**
 * What every rate-limit store must do, with times given explicitly: the log slides with the
 * clock, so no test waits for a window to pass.
 */
export function storeContract(store: () => CounterStore): void {
  let n = 0;
  // Each test its own keys, so tests never share a log.
  const key = (name: string) => `contract:${process.pid}:${++n}:${name}`;
  const T0 = Date.UTC(2030, 0, 1);

  it('counts up to max in any window-long span, then refuses with the exact wait until the oldest leaves', async () => {
    const k = key('slide');
    for (const at of [0, 1_000, 2_000])
      assert.equal((await store().take(k, 3, 10_000, T0 + at)).taken, true, `at ${at}`);
    assert.deepEqual(await store().take(k, 3, 10_000, T0 + 5_000), { taken: false, retryAfterMs: 5_000 });
    assert.deepEqual(await store().take(k, 3, 10_000, T0 + 9_999), { taken: false, retryAfterMs: 1 });
    assert.equal((await store().take(k, 3, 10_000, T0 + 10_000)).taken, true, 'the first hit has left the window');
    // Now the hits at 1 s, 2 s and 10 s are in the window: room at 11 s, not before.
    assert.deepEqual(await store().take(k, 3, 10_000, T0 + 10_001), { taken: false, retryAfterMs: 999 });
    assert.equal((await store().take(k, 3, 10_000, T0 + 11_000)).taken, true);
  });

  it('holds "1 per 5 minutes" across a boundary of the clock: a second request 2 min 26 s later waits the other 2 min 34 s', async () => {
    const k = key('boundary');
    const boundary = T0 + 300_000;
    assert.equal((await store().take(k, 1, 300_000, boundary - 30_000)).taken, true);
    assert.deepEqual(await store().take(k, 1, 300_000, boundary - 30_000 + 146_000), {
      taken: false,
      retryAfterMs: 154_000,
    });
    assert.equal((await store().take(k, 1, 300_000, boundary - 30_000 + 300_000)).taken, true);
  });

  it('counts no refused request, so hammering does not push the wait back', async () => {
    const k = key('hammer');
    assert.equal((await store().take(k, 1, 60_000, T0)).taken, true);
    for (let at = 1_000; at < 60_000; at += 7_000)
      assert.equal((await store().take(k, 1, 60_000, T0 + at)).taken, false);
    assert.equal((await store().take(k, 1, 60_000, T0 + 60_000)).taken, true);
  });

  it('gives a place back, one entry even when two share a millisecond', async () => {
    const k = key('give-back');
    const first = await store().take(k, 2, 60_000, T0);
    const second = await store().take(k, 2, 60_000, T0);
    assert.ok(first.taken && second.taken);
    assert.equal((await store().take(k, 2, 60_000, T0 + 1)).taken, false);
    await store().giveBack(k, second.slot);
    assert.equal((await store().take(k, 2, 60_000, T0 + 2)).taken, true, 'one place came back');
    assert.equal((await store().take(k, 2, 60_000, T0 + 3)).taken, false, 'only one');
    await store().giveBack(key('never-taken'), '123');
  });

  it('keeps keys apart, and refuses everything when max is 0', async () => {
    const a = key('a');
    assert.equal((await store().take(a, 1, 60_000, T0)).taken, true);
    assert.equal((await store().take(key('b'), 1, 60_000, T0)).taken, true);
    assert.deepEqual(await store().take(key('zero'), 0, 60_000, T0), { taken: false, retryAfterMs: 60_000 });
  });

  it('counts concurrent requests one after the other: exactly max pass', async () => {
    const k = key('concurrent');
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => store().take(k, 25, 60_000, T0 + i)));
    assert.equal(results.filter((r) => r.taken).length, 25);
  });
}
