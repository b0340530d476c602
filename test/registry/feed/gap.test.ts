import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../../src/db/database.ts';
import { appendEvent } from '../../../src/registry/feed/append.ts';
import { engines } from '../../support/engines.ts';
import { allEventIds, anotherPool, getFeed, sampleEvent } from '../../support/feed.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const total = 20_000;
const writers = 8;
const readers = 3;
const random = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

describe('[postgres] change feed under concurrent writers', () => {
  let server: TestServer;
  // Two pools of four, as two instances of the service would write.
  let instances: Database[];

  before(async () => {
    server = await startTestServer(engines.find((e) => e.name === 'postgres')!);
    instances = [await anotherPool(server.db, 4), await anotherPool(server.db, 4)];
  });
  after(async () => {
    await Promise.all(instances.map((db) => db.close()));
    await server.close();
  });

  it(`shows ${readers} tailing readers every one of ${total} events from ${writers} writers exactly once, in id order`, async () => {
    let claimed = 0;
    let writing = true;

    // Transactions of 1 to 8 events with pauses between inserts, and now and then a long one, so
    // commit order often differs from the order the events were written in.
    const writer = async (db: Database) => {
      while (claimed < total) {
        const size = Math.min(random(1, 8), total - claimed);
        const first = claimed;
        claimed += size;
        const stall = Math.random() < 0.05 ? random(50, 200) : 0;
        await db.transaction(async (tx) => {
          for (let i = 0; i < size; i++) {
            await appendEvent(tx, sampleEvent(first + i));
            await sleep(random(0, 3));
          }
          if (stall) await sleep(stall);
        });
      }
    };

    const reader = async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const { status, body } = await getFeed(server.url, { cursor, limit: random(1, 500) });
        assert.equal(status, 200, JSON.stringify(body));
        for (const event of body.events) seen.push(event.event_id);
        cursor = body.cursor ?? undefined;
        if (!body.has_more) {
          if (!writing && seen.length >= total) return seen;
          if (!writing && (await getFeed(server.url, { cursor })).body.events.length === 0) return seen;
          await sleep(random(0, 10));
        }
      }
    };

    const reading = Array.from({ length: readers }, reader);
    await Promise.all(Array.from({ length: writers }, (_, i) => writer(instances[i % 2]!)));
    writing = false;
    const seenByReader = await Promise.all(reading);

    const committed = await allEventIds(server.db);
    assert.equal(committed.length, total);
    for (const [i, seen] of seenByReader.entries()) {
      const outOfOrder = seen.findIndex((id, k) => k > 0 && id <= seen[k - 1]!);
      assert.equal(outOfOrder, -1, `reader ${i}: event ${seen[outOfOrder]} after ${seen[outOfOrder - 1]}`);
      const seenSet = new Set(seen);
      const missed = committed.filter((id) => !seenSet.has(id));
      assert.deepEqual(missed.slice(0, 5), [], `reader ${i} missed ${missed.length} events`);
      assert.equal(seen.length, total, `reader ${i} saw ${seen.length} events`);
    }
  });
});
