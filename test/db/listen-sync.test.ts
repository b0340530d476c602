import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { eachEngine, postgresUrl } from '../support/engines.ts';

/**
 * `Listening.sync()` is what lets a process answer from what notifications told it: once it
 * resolves, every notification committed before the call has been delivered. On PostgreSQL the
 * notifications are sent through another pool, as another instance would.
 */
eachEngine('listening: sync', (engine) => {
  let db: Database;
  let writer: Database;
  before(async () => {
    db = await engine.open();
    if (engine.name === 'postgres') {
      const [row] = await db.query<{ schema: string }>('select current_schema() as schema');
      writer = openPostgres({ url: postgresUrl, schema: row!.schema, poolMax: 1 });
    } else writer = db;
  });
  after(async () => {
    if (writer !== db) await writer.close();
    await db.close();
  });

  it('resolves only once every notification committed before it has been delivered', async () => {
    let heard = 0;
    const listening = await db.listen('sync_test', () => heard++);
    try {
      for (let sent = 1; sent <= 200; sent++) {
        await writer.query(`select pg_notify('sync_test', '')`);
        await listening.sync();
        assert.equal(
          heard,
          sent,
          `notification ${sent} was committed before sync() and not delivered when it resolved`,
        );
      }
      // Concurrent callers share round trips, and each still sees what was committed before it.
      await writer.query(`select pg_notify('sync_test', '')`);
      await Promise.all(Array.from({ length: 20 }, () => listening.sync()));
      assert.equal(heard, 201);
    } finally {
      await listening();
    }
  });
});
