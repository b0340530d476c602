import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, it } from 'node:test';
import { pruneFeed } from '../../../src/registry/feed/retention.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { allEventIds, getFeed, writeEvents } from '../../support/feed.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const day = 24 * 60 * 60 * 1000;
const createdAt = (eventId: string) => parseInt(eventId.replaceAll('-', '').slice(0, 12), 16);

eachEngine('change feed retention', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();

  // The job runs at start (deleting nothing: the clock is now) and then hourly, out of these tests' way.
  before(async () => {
    server = await startTestServer(engine, { deps: { clock }, env: { FEED_RETENTION_DAYS: '30' } });
  });
  after(() => server.close());

  it('deletes events older than the window, keeps younger ones, and answers 410 for cursors it deleted', async () => {
    await writeEvents(server.db, 5);
    await sleep(20);
    await writeEvents(server.db, 3, 5);
    const ids = await allEventIds(server.db);
    const [older, younger] = [ids.slice(0, 5), ids.slice(5)];
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
    const head = (await allEventIds(server.db)).at(-1)!;
    clock.set(Date.now() + 365 * day);
    await pruneFeed(server.db, clock, 30);
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
    server = await startTestServer(engine, { deps: { clock }, env: { FEED_RETENTION_DAYS: '30', FEED_PRUNE_INTERVAL_SECONDS: '1' } });
  });
  after(() => server.close());

  it('runs periodically in the server with its clock, deleting without any request', async () => {
    await writeEvents(server.db, 4);
    const newest = (await allEventIds(server.db)).at(-1)!;
    clock.set(Date.now() + 31 * day);
    const deadline = Date.now() + 10_000;
    while ((await allEventIds(server.db)).length > 1 && Date.now() < deadline) await sleep(100);
    assert.deepEqual(await allEventIds(server.db), [newest]);
  });
});
