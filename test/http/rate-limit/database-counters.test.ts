import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Database } from '../../../src/db/database.ts';
import type { CounterStore } from '../../../src/http/rate-limit/counter-store.ts';
import { databaseCounters } from '../../../src/http/rate-limit/database-counters.ts';
import { eachEngine } from '../../support/engines.ts';
import { storeContract } from './store-contract.ts';

eachEngine('database rate-limit logs', (engine) => {
  let db: Database;
  let store: CounterStore;
  before(async () => {
    db = await engine.openMigrated();
    store = databaseCounters(db);
  });
  after(async () => {
    await store.close();
    await db.close();
  });

  storeContract(() => store);

  it('keeps one row per key, the hits in the window in order', async () => {
    for (const at of [3_000, 1_000, 2_000]) await store.take('rows', 5, 10_000, at);
    await store.take('rows', 5, 10_000, 12_500);
    assert.deepEqual(await hitsOf('rows'), [3_000, 12_500], 'the hits at 1 s and 2 s left the window');
    assert.deepEqual(await db.query(`select taken, expires_at from rate_limit_log where key = 'rows'`), [
      { taken: true, expires_at: 22_500 },
    ]);
  });

  it('sweeps rows whose hits have all left their window, by the store’s clock', async () => {
    const now = Date.UTC(2031, 0, 1);
    await store.take('sweep:old', 1, 60_000, now - 120_000);
    await store.take('sweep:current', 1, 60_000, now - 1_000);
    const sweeping = databaseCounters(db, { sweepEveryMs: 20, now: () => now });
    try {
      await sweeping.sweeps.nextPass();
      assert.equal(
        (await db.query(`select 1 from rate_limit_log where key = 'sweep:old'`)).length,
        0,
        'a row past its window is gone',
      );
      assert.equal(
        (await db.query(`select 1 from rate_limit_log where key = 'sweep:current'`)).length,
        1,
        'a row still in its window stays',
      );
    } finally {
      await sweeping.close();
    }
  });

  async function hitsOf(key: string): Promise<number[]> {
    const [row] = await db.query<{ hits: Array<number | string> }>(`select hits from rate_limit_log where key = $1`, [
      key,
    ]);
    return row!.hits.map(Number);
  }
});
