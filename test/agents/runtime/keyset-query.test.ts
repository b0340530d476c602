import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Database } from '../../../src/db/database.ts';
import { keysetList, keysetQuery } from '../../../src/agents/runtime/index.ts';
import { eachEngine } from '../../support/engines.ts';

eachEngine('keysetQuery: a table’s list, paged by seq and counted under the same condition', (engine) => {
  let db: Database;
  before(async () => {
    db = await engine.open();
    await db.exec(`create table items (seq bigserial primary key, owner text not null, tag text)`);
    for (const [owner, tag] of [
      ['a', 'x'],
      ['b', 'x'],
      ['a', null],
      ['a', 'y'],
      ['a', 'x'],
      ['b', 'y'],
    ])
      await db.query(`insert into items (owner, tag) values ($1, $2)`, [owner, tag]);
  });
  after(() => db.close());

  // An `or` in the condition stays inside it: the page's `seq >` bounds the whole condition.
  const items = (owner: string, tag: string) =>
    keysetQuery<{ seq: number; tag: string | null }>(db, {
      table: 'items',
      columns: 'seq::int as seq, tag',
      where: `owner = $1 and tag = $2 or owner = $1 and tag is null`,
      params: [owner, tag],
    });

  it('reads the pages after each cursor and counts every row the condition selects', async () => {
    const first = await keysetList('t', { max_results: 2 }, items('a', 'x'));
    assert.deepEqual(
      first.page.map((r) => r.seq),
      [1, 3],
    );
    assert.equal(first.pagination.total_count, 3);
    assert.equal(first.pagination.has_more, true);
    const second = await keysetList('t', { max_results: 2, cursor: first.pagination.cursor! }, items('a', 'x'));
    assert.deepEqual(
      second.page.map((r) => r.seq),
      [5],
    );
    assert.deepEqual(second.pagination, { has_more: false, total_count: 3 });
  });

  it('answers an empty list for a condition that selects nothing', async () => {
    const none = await keysetList('t', undefined, items('c', 'x'));
    assert.deepEqual(none.page, []);
    assert.deepEqual(none.pagination, { has_more: false, total_count: 0 });
    assert.equal(none.whole, true);
  });
});
