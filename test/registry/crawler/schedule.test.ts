import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextCrawlAt } from '../../../src/registry/crawler/schedule.ts';

const config = { intervalSeconds: 86400, retryBaseSeconds: 60, jitter: 0.1 };
const now = new Date('2026-11-23T00:00:00Z');
const after = (date: Date) => (date.getTime() - now.getTime()) / 1000;

describe('nextCrawlAt', () => {
  it('waits the interval after a definite answer, spread by the jitter', () => {
    assert.equal(after(nextCrawlAt(now, config, { transient: false, failures: 0 }, () => 0.5)), 86400);
    assert.equal(after(nextCrawlAt(now, config, { transient: false, failures: 0 }, () => 0)), 77760);
    assert.equal(after(nextCrawlAt(now, config, { transient: false, failures: 0 }, () => 1)), 95040);
  });

  it('backs off exponentially after transient failures, capped at the interval', () => {
    const delays = [1, 2, 3, 4, 20].map((failures) =>
      after(nextCrawlAt(now, config, { transient: true, failures }, () => 0.5)),
    );
    assert.deepEqual(delays, [60, 120, 240, 480, 86400]);
  });

  it('never retries before the publisher’s Retry-After', () => {
    assert.equal(
      after(nextCrawlAt(now, config, { transient: true, failures: 1, retryAfterSeconds: 3600 }, () => 0)),
      3600,
    );
  });
});
