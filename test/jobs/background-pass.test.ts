import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BackgroundPass } from '../../src/jobs/background-pass.ts';

/**
 * Work that holds each pass until released and says when a pass has begun, so the tests wait for
 * the work itself, never for time.
 */
function heldWork(body: () => void = () => {}) {
  let release = () => {};
  let begun = () => {};
  return {
    work: async () => {
      body();
      begun();
      await new Promise<void>((resolve) => (release = resolve));
    },
    release: () => release(),
    /** Resolves when the next pass begins. */
    nextBegins: () => new Promise<void>((resolve) => (begun = resolve)),
  };
}

describe('background pass', () => {
  it('folds wakes during a pass into one more pass, and stops after waiting for the one running', async () => {
    let passes = 0;
    const held = heldWork(() => passes++);
    const pass = new BackgroundPass(held.work, (err) => assert.fail(String(err)));
    pass.start();
    assert.equal(passes, 1);
    for (let i = 0; i < 10; i++) pass.wake();
    const second = held.nextBegins();
    held.release();
    await second;
    assert.equal(passes, 2);
    const stopped = pass.stop();
    pass.wake();
    held.release();
    await stopped;
    // `stop` resolves after the pass's bookkeeping, which is where a folded wake would start another.
    assert.equal(passes, 2, 'no pass after stop');
  });

  it('reports a failed pass and runs again on the next wake', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const pass = new BackgroundPass(
      async () => {
        if (calls++ === 0) throw new Error('first fails');
      },
      (err) => errors.push(err),
    );
    const first = pass.nextPass();
    pass.wake();
    await first;
    assert.equal(errors.length, 1);
    const second = pass.nextPass();
    pass.wake();
    await second;
    await pass.stop();
    assert.equal(calls, 2);
    assert.equal(errors.length, 1);
  });

  it('nextPass waits for a pass that starts after it is asked, not for the one already running', async () => {
    let value = 0;
    const read: number[] = [];
    const held = heldWork(() => read.push(value));
    const pass = new BackgroundPass(held.work, (err) => assert.fail(String(err)));
    pass.wake();
    const next = pass.nextPass();
    let nextDone = false;
    void next.then(() => (nextDone = true));
    value = 1;
    pass.wake();
    const second = held.nextBegins();
    held.release();
    await second;
    assert.equal(nextDone, false, 'the pass that read the old value does not count');
    held.release();
    await next;
    assert.deepEqual(read, [0, 1]);
    await pass.stop();
  });
});
