import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { eachEngine } from '../support/engines.ts';

eachEngine('database', (engine) => {
  let db: Database;
  before(async () => {
    db = await engine.open();
    await db.query('create table items (id serial primary key, name text not null unique)');
  });
  after(() => db.close());

  it('runs parameterized queries', async () => {
    const rows = await db.query<{ sum: number }>('select $1::int + $2::int as sum', [2, 3]);
    assert.deepEqual(rows, [{ sum: 5 }]);
  });

  it('returns the same JavaScript types on both engines', async () => {
    const [row] = await db.query<Record<string, unknown>>(
      `select 9007199254740991::int8 as big, '2026-11-22'::date as day, '2026-11-22T01:02:03.456Z'::timestamptz as at,
              '{"a":[1]}'::jsonb as doc, 1.50::numeric as amount, true as flag`,
    );
    assert.deepEqual(row, {
      big: 9007199254740991,
      day: '2026-11-22',
      at: new Date('2026-11-22T01:02:03.456Z'),
      doc: { a: [1] },
      amount: '1.50',
      flag: true,
    });
  });

  it('commits a transaction that resolves', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into items (name) values ($1)', ['committed']);
    });
    assert.equal((await db.query('select 1 from items where name = $1', ['committed'])).length, 1);
  });

  it('rolls back everything a failing transaction wrote', async () => {
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query('insert into items (name) values ($1)', ['rolled-back']);
        await tx.query('insert into items (name) values ($1)', ['committed']); // unique violation
      }),
      /duplicate key/,
    );
    assert.equal((await db.query('select 1 from items where name = $1', ['rolled-back'])).length, 0);
  });

  it('keeps concurrent transactions isolated from each other', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `concurrent-${i}`);
    await Promise.all(
      names.map((name) =>
        db.transaction(async (tx) => {
          await tx.query('insert into items (name) values ($1)', [name]);
          const [{ n }] = (await tx.query<{ n: number }>('select count(*)::int as n from items where name = $1', [
            name,
          ])) as [{ n: number }];
          assert.equal(n, 1);
        }),
      ),
    );
    const rows = await db.query<{ n: number }>(`select count(*)::int as n from items where name like 'concurrent-%'`);
    assert.equal(rows[0]?.n, 8);
  });

  it('reports pool statistics', () => {
    const stats = db.stats();
    assert.ok(stats.total >= 0 && stats.idle >= 0 && stats.waiting >= 0);
  });
});

describe('embedded PGlite', () => {
  it('keeps a small buffer pool: its pages are already in memory or in the page cache', async () => {
    const db = await openPglite({ dataDir: 'memory://' });
    try {
      const [row] = await db.query<{ size: string }>(`select current_setting('shared_buffers') as size`);
      assert.equal(row!.size, '16MB');
      // The rest of PGlite's settings stand: the search path the registry's unqualified names rely on.
      const [path] = await db.query<{ path: string }>(`select current_setting('search_path') as path`);
      assert.equal(path!.path, 'public');
    } finally {
      await db.close();
    }
  });
});
