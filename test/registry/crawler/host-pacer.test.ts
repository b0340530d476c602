import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostPacer } from '../../../src/registry/crawler/host-pacer.ts';

/** The pacer's gaps, held until the test ends them; `next` resolves when one is asked for. */
class HeldGaps {
  readonly pending: Array<{ ms: number; end: () => void }> = [];
  private waiter: (() => void) | undefined;
  after = (ms: number, end: () => void): void => {
    this.pending.push({ ms, end });
    this.waiter?.();
  };
  /** Resolves once `count` gaps are pending. */
  async until(count: number): Promise<void> {
    while (this.pending.length < count) await new Promise<void>((resolve) => (this.waiter = resolve));
  }
  endAll(): void {
    for (const gap of this.pending.splice(0)) gap.end();
  }
}

describe('HostPacer', () => {
  it('runs one request per host at a time, the gap after each, without holding up other hosts', async () => {
    const gaps = new HeldGaps();
    const pacer = new HostPacer(100, gaps.after);
    const started: string[] = [];
    const task = (host: string, name: string) => pacer.run(host, async () => void started.push(name));
    const all = Promise.all([task('a', 'a1'), task('a', 'a2'), task('a', 'a3'), task('b', 'b1')]);

    // a1 and b1 ran and each host now waits out its gap; a2 waits for a's.
    await gaps.until(2);
    assert.deepEqual(started.sort(), ['a1', 'b1']);
    assert.deepEqual(
      gaps.pending.map((g) => g.ms),
      [100, 100],
    );
    gaps.endAll();
    await gaps.until(1);
    assert.deepEqual(started, ['a1', 'b1', 'a2']);
    gaps.endAll();
    await gaps.until(1);
    assert.deepEqual(started, ['a1', 'b1', 'a2', 'a3']);
    gaps.endAll();
    await all;
  });

  it('waits the real gap with the real timer', async () => {
    const pacer = new HostPacer(30);
    const starts: number[] = [];
    const task = () => pacer.run('a', async () => void starts.push(performance.now()));
    await Promise.all([task(), task()]);
    // A loose lower bound only: a busy machine makes the gap longer, never shorter (the margin is
    // for the event loop's cached time, which can start a timer's count a little early).
    assert.ok(starts[1]! - starts[0]! >= 20, `second started ${starts[1]! - starts[0]!} ms after the first`);
  });

  it('releases the host when a request fails', async () => {
    const pacer = new HostPacer(0);
    await assert.rejects(pacer.run('a', async () => Promise.reject(new Error('boom'))));
    assert.equal(await pacer.run('a', async () => 'next'), 'next');
  });
});
