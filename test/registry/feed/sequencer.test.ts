import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Database } from '../../../src/db/database.ts';
import { appendEvent } from '../../../src/registry/feed/append.ts';
import { eachEngine } from '../../support/engines.ts';
import { allEventIds, eventKeys, sampleEvent } from '../../support/feed.ts';

const millisecondOf = (id: string) => parseInt(id.replaceAll('-', '').slice(0, 12), 16);
const counterOf = (id: string) => parseInt(id.replaceAll('-', '').slice(13, 16), 16);

eachEngine('feed event ids', (engine) => {
  let db: Database;
  before(async () => {
    db = await engine.openMigrated();
  });
  after(() => db.close());

  it('are UUID v7, increasing in the order events were appended, with created_at their millisecond', async () => {
    for (const first of [0, 50]) {
      await db.transaction(async (tx) => {
        for (let i = first; i < first + 50; i++) await appendEvent(tx, { ...sampleEvent(i), actor: `test:${i}` });
      });
    }
    const rows = await db.query<{ event_id: string; created_at: Date; actor: string }>(
      'select event_id, created_at, actor from registry_events order by event_id',
    );
    assert.deepEqual(
      rows.map((r) => r.actor),
      Array.from({ length: 100 }, (_, i) => `test:${i}`),
      'id order is the order of appending',
    );
    for (const row of rows) {
      assert.match(row.event_id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(row.created_at.getTime(), millisecondOf(row.event_id));
    }
  });

  it('come with the event’s JSON, written at commit with its id and time, as the feed serves it', async () => {
    const rows = await db.query<{ json: string | null; event_id: string; event_type: string; created_at: Date }>(
      'select json, event_id, event_type, created_at, entity_type, entity_id, payload, actor from registry_events',
    );
    assert.ok(rows.length > 0);
    for (const row of rows) {
      const { json, ...columns } = row;
      assert.ok(json !== null, 'every committed event carries its JSON');
      assert.deepEqual(Object.keys(JSON.parse(json) as object), eventKeys);
      assert.deepEqual(JSON.parse(json), { ...columns, created_at: row.created_at.toISOString() });
    }
  });

  it('keep increasing when the clock is behind the last id, borrowing the next millisecond after 4,096 in one', async () => {
    const future = Date.now() + 60_000;
    await db.query('update feed_sequencer set last_ms = $1, last_counter = 4094', [future]);
    await db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) await appendEvent(tx, sampleEvent(i));
    });
    const last3 = (await allEventIds(db)).slice(-3);
    assert.deepEqual(
      last3.map((id) => [millisecondOf(id), counterOf(id)]),
      [
        [future, 4095],
        [future + 1, 0],
        [future + 1, 1],
      ],
    );
  });

  it('are not given to a transaction that rolls back', async () => {
    const before = await allEventIds(db);
    await assert.rejects(
      db.transaction(async (tx) => {
        await appendEvent(tx, sampleEvent(0));
        throw new Error('changed its mind');
      }),
    );
    assert.deepEqual(await allEventIds(db), before);
  });
});
