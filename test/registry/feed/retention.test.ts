import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Database } from '../../../src/db/database.ts';
import { pruneFeed } from '../../../src/registry/feed/retention.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { allEventIds, getFeed, writeEvents } from '../../support/feed.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const day = 24 * 60 * 60 * 1000;
const createdAt = (eventId: string) => parseInt(eventId.replaceAll('-', '').slice(0, 12), 16);

/** Each test starts from an empty log and writes the events it speaks of, whatever ran before. */
async function emptyLog(db: Database): Promise<void> {
  await db.query('delete from registry_events');
}

/**
 * Makes events `ms` older: their ids' millisecond (which retention goes by) and `created_at` move
 * back, keeping their order. Events written in one go can share a millisecond; this gives two
 * batches distinct ages without waiting for the database's clock to move on.
 */
async function age(db: Database, ids: string[], ms: number): Promise<string[]> {
  const rows = await db.query<{ event_id: string }>(
    `update registry_events
        set event_id = (lpad(to_hex(('x' || substr(replace(event_id::text, '-', ''), 1, 12))::bit(48)::bigint - $2), 12, '0')
                        || substr(replace(event_id::text, '-', ''), 13))::uuid,
            created_at = created_at - make_interval(secs => $2::double precision / 1000),
            json = null
      where event_id = any($1::uuid[])
      returning event_id`,
    [ids, ms],
  );
  return rows.map((r) => r.event_id).sort();
}

eachEngine('change feed retention', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();

  // The job runs at start (deleting nothing: the clock is now) and then hourly, out of these tests' way.
  before(async () => {
    server = await startTestServer(engine, { deps: { clock }, env: { FEED_RETENTION_DAYS: '30' } });
  });
  after(() => server.close());

  it('deletes events older than the window, keeps younger ones, and answers 410 for cursors it deleted', async () => {
    await emptyLog(server.db);
    await writeEvents(server.db, 5);
    const older = await age(server.db, await allEventIds(server.db), 1000);
    await writeEvents(server.db, 3, 5);
    const younger = (await allEventIds(server.db)).slice(5);
    assert.ok(createdAt(older.at(-1)!) < createdAt(younger[0]!));
    // Thirty days after the first younger event: the older ones are past the window, the younger not.
    clock.set(createdAt(younger[0]!) + 30 * day);

    const deleted = await pruneFeed(server.db, clock, 30);
    assert.equal(deleted, 5);
    assert.deepEqual(await allEventIds(server.db), younger);
    const expired = await getFeed(server.url, { cursor: older.at(-1) });
    assert.equal(expired.status, 410);
    assert.equal(expired.body.error, 'cursor_expired');
    const kept = await getFeed(server.url, { cursor: younger[0] });
    assert.equal(kept.status, 200);
    assert.deepEqual(
      kept.body.events.map((e: { event_id: string }) => e.event_id),
      younger.slice(1),
    );
    const earliest = await getFeed(server.url);
    assert.equal(earliest.body.events[0].event_id, younger[0], 'no cursor starts at the earliest retained event');
    assert.equal(earliest.body.freshness.retention_days, 30);
  });

  it('keeps the newest event however old, so a caught-up cursor stays valid in a quiet registry', async () => {
    await emptyLog(server.db);
    await writeEvents(server.db, 3);
    const head = (await allEventIds(server.db)).at(-1)!;
    clock.set(Date.now() + 365 * day);
    assert.equal(await pruneFeed(server.db, clock, 30), 2);
    assert.deepEqual(await allEventIds(server.db), [head]);
    const { status, body } = await getFeed(server.url, { cursor: head });
    assert.equal(status, 200);
    assert.equal(body.cursor, head);
  });
});

eachEngine('change feed retention job', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();

  before(async () => {
    server = await startTestServer(engine, {
      deps: { clock },
      env: { FEED_RETENTION_DAYS: '30', FEED_PRUNE_INTERVAL_SECONDS: '1' },
    });
  });
  after(() => server.close());

  it('runs periodically in the server with its clock, deleting without any request', async () => {
    await writeEvents(server.db, 4);
    const newest = (await allEventIds(server.db)).at(-1)!;
    // The next pass the interval starts, after the clock has moved: no wake, no request.
    const nextPass = server.app.feedRetention.nextPass();
    clock.set(Date.now() + 31 * day);
    await nextPass;
    assert.deepEqual(await allEventIds(server.db), [newest]);
  });
});
