import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WorkPool } from '../../src/jobs/work-pool.ts';

/** A promise and the function that resolves it, for a test to wait on work it is told of. */
function signal() {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => (fire = resolve));
  return { fire, fired };
}

describe('WorkPool', () => {
  it('drains a backlog never running more than the concurrency at once', async () => {
    const backlog = Array.from({ length: 40 }, (_, i) => i);
    const done: number[] = [];
    const drained = signal();
    let running = 0;
    let widest = 0;
    const pool = new WorkPool<number>({
      claim: async (room) => backlog.splice(0, room),
      run: async (item) => {
        widest = Math.max(widest, ++running);
        // Yields to the event loop, so items overlap as real ones would.
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        done.push(item);
        if (done.length === 40) drained.fire();
      },
      onClaimError: assert.fail,
      onRunError: assert.fail,
      concurrency: 4,
      pollMs: 60_000,
    });
    pool.start();
    await drained.fired;
    await pool.close();
    assert.equal(widest, 4);
    assert.deepEqual(
      [...done].sort((a, b) => a - b),
      Array.from({ length: 40 }, (_, i) => i),
    );
  });

  it('reports a failed item and keeps going; reports a failed claim and retries on the next wake', async () => {
    const failures: unknown[] = [];
    const claimFailed = signal();
    const goodRan = signal();
    let items = ['bad', 'good'];
    let claims = 0;
    const ran: string[] = [];
    const pool = new WorkPool<string>({
      claim: async (room) => {
        if (++claims === 1) throw new Error('database away');
        return items.splice(0, room);
      },
      run: async (item) => {
        if (item === 'bad') throw new Error('boom');
        ran.push(item);
        goodRan.fire();
      },
      onClaimError: () => claimFailed.fire(),
      onRunError: (err, item) => failures.push([item, (err as Error).message]),
      concurrency: 1,
      pollMs: 60_000,
    });
    pool.start();
    await claimFailed.fired;
    pool.wake();
    await goodRan.fired;
    assert.deepEqual(failures, [['bad', 'boom']]);
    assert.deepEqual(ran, ['good']);
    items = ['after-close'];
    await pool.close();
    pool.wake();
    assert.deepEqual(ran, ['good']);
  });
});
