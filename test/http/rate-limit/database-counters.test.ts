import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../../src/db/database.ts';
import { loadMigrations, migrate } from '../../../src/db/migrate.ts';
import type { CounterStore } from '../../../src/http/rate-limit/counter-store.ts';
import { databaseCounters } from '../../../src/http/rate-limit/database-counters.ts';
import { eachEngine } from '../../support/engines.ts';
import { roomInWindow } from './support.ts';

eachEngine('database rate-limit counters', (engine) => {
  let db: Database;
  let store: CounterStore;
  before(async () => {
    db = await engine.open();
    await migrate(db, await loadMigrations());
    store = databaseCounters(db);
  });
  after(async () => {
    await store.close();
    await db.close();
  });

  it('counts hits per key, with a retry-after that ends the aligned window', async () => {
    await roomInWindow(3600, 10);
    for (let i = 1; i <= 3; i++) {
      const hit = await store.hit('count:a', 3600);
      assert.equal(hit.hits, i);
      const left = 3600 - Math.floor((Date.now() % 3_600_000) / 1000);
      assert.ok(Math.abs(hit.retryAfterSeconds - left) <= 1, `retry after ${hit.retryAfterSeconds}, expected about ${left}`);
    }
    assert.equal((await store.hit('count:b', 3600)).hits, 1, 'another key has its own counter');
    assert.equal((await store.hit('count:a', 86_400)).hits, 1, 'another window length is another counter');
  });

  it('starts a new window once the last one has passed', async () => {
    // Two-second windows aligned to the epoch: start early in one so both hits share it.
    while (Date.now() % 2000 > 500) await sleep(50);
    const first = await store.hit('rollover', 2);
    assert.equal(first.hits, 1);
    assert.ok(first.retryAfterSeconds >= 1 && first.retryAfterSeconds <= 2, `retry after ${first.retryAfterSeconds}`);
    assert.equal((await store.hit('rollover', 2)).hits, 2);
    await sleep(first.retryAfterSeconds * 1000 + 100);
    const next = await store.hit('rollover', 2);
    assert.equal(next.hits, 1);
    assert.ok(next.retryAfterSeconds >= 0 && next.retryAfterSeconds <= 2, `retry after ${next.retryAfterSeconds}`);
  });

  it('counts every concurrent hit once', async () => {
    await roomInWindow(3600, 10);
    const hits = await Promise.all(Array.from({ length: 40 }, () => store.hit('concurrent', 3600)));
    assert.deepEqual(
      hits.map((h) => h.hits).sort((a, b) => a - b),
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });

  it('sweeps windows that have long passed', async () => {
    await db.query(`insert into rate_limit_counters (key, window_start, hits) values ('old', now() - interval '3 days', 7)`);
    const sweeping = databaseCounters(db, { sweepEveryMs: 20 });
    try {
      for (let i = 0; i < 100; i++) {
        if ((await db.query(`select 1 from rate_limit_counters where key = 'old'`)).length === 0) break;
        await sleep(20);
      }
      assert.deepEqual(await db.query(`select key from rate_limit_counters where key = 'old'`), []);
      assert.equal((await db.query(`select 1 from rate_limit_counters where key = 'count:a'`)).length, 2, 'current windows stay');
    } finally {
      await sweeping.close();
    }
  });
});
