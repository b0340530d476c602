import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BackgroundPass } from '../../src/jobs/background-pass.ts';

describe('background pass', () => {
  it('folds wakes during a pass into one more pass, and stops after waiting for the one running', async () => {
    let passes = 0;
    let release = () => {};
    const pass = new BackgroundPass(async () => {
      passes++;
      await new Promise<void>((resolve) => (release = resolve));
    }, (err) => assert.fail(String(err)));
    pass.start();
    for (let i = 0; i < 10; i++) pass.wake();
    release();
    await sleep(10);
    assert.equal(passes, 2);
    const stopped = pass.stop();
    pass.wake();
    release();
    await stopped;
    await sleep(10);
    assert.equal(passes, 2, 'no pass after stop');
  });

  it('reports a failed pass and runs again on the next wake', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const pass = new BackgroundPass(async () => {
      if (calls++ === 0) throw new Error('first fails');
    }, (err) => errors.push(err));
    pass.wake();
    await sleep(5);
    pass.wake();
    await pass.stop();
    assert.equal(calls, 2);
    assert.equal(errors.length, 1);
  });
});
