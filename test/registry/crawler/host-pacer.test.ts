import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostPacer } from '../../../src/registry/crawler/host-pacer.ts';

describe('HostPacer', () => {
  it('runs one request per host at a time, at least the gap apart, without holding up other hosts', async () => {
    const pacer = new HostPacer(100);
    const starts: Array<[string, number]> = [];
    const t0 = Date.now();
    const task = (host: string) => pacer.run(host, async () => void starts.push([host, Date.now() - t0]));
    await Promise.all([task('a'), task('a'), task('a'), task('b')]);
    const a = starts.filter(([h]) => h === 'a').map(([, t]) => t);
    assert.ok(a[1]! - a[0]! >= 95 && a[2]! - a[1]! >= 95, `a started at ${a}`);
    assert.ok(starts.find(([h]) => h === 'b')![1] < 50);
  });

  it('releases the host when a request fails', async () => {
    const pacer = new HostPacer(0);
    await assert.rejects(pacer.run('a', async () => Promise.reject(new Error('boom'))));
    assert.equal(await pacer.run('a', async () => 'next'), 'next');
  });
});
