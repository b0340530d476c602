import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import { appendEvent } from '../../../src/registry/feed/append.ts';
import { eachEngine } from '../../support/engines.ts';
import {
  allEventIds,
  assertValidPage,
  sampleEvent,
  SseClient,
  writeEvents,
  type SseMessage,
} from '../../support/feed.ts';
import type { Json } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

eachEngine('change feed stream', (engine) => {
  let server: TestServer;
  const clients: SseClient[] = [];
  const connect = async (query = '', headers?: Record<string, string>) => {
    const client = new SseClient(`${server.url}/api/registry/feed/stream${query}`, headers);
    clients.push(client);
    await client.opened();
    return client;
  };
  /** Messages until the first heartbeat (the stream is caught up), and the events they carried. */
  const untilCaughtUp = async (client: SseClient) => {
    const events: Json[] = [];
    let message: SseMessage;
    while ((message = await client.next()).event === 'feed') {
      assertValidPage(message.data);
      events.push(...message.data.events);
    }
    assert.equal(message.event, 'heartbeat');
    return { events, heartbeat: message.data };
  };
  const subscribersDropTo = async (count: number) => {
    await server.app.feedHub.until(() => server.app.feedHub.subscriberCount === count);
    return server.app.feedHub.subscriberCount;
  };

  before(async () => {
    // Heartbeats a minute apart: a delivery within seconds was woken by the commit, not the timer.
    server = await startTestServer(engine, { env: { FEED_HEARTBEAT_SECONDS: '60' } });
    await writeEvents(server.db, 12);
  });
  after(async () => {
    for (const client of clients) client.close();
    await server.close();
  });

  describe('before the stream starts', () => {
    it('requires a credential', async () => {
      const client = await connect('', {});
      assert.equal(client.status, 401);
    });

    it('answers 410 as JSON for an unknown cursor, and 400 for a bad filter', async () => {
      assert.equal((await connect(`?cursor=${uuidv7()}`)).status, 410);
      assert.equal((await connect('?types=nothing.*')).status, 400);
    });
  });

  describe('delivery', () => {
    it('sends the backlog as feed pages, then a heartbeat carrying the cursor, with no SSE ids', async () => {
      const client = await connect('?limit=5');
      assert.equal(client.status, 200);
      const { events, heartbeat } = await untilCaughtUp(client);
      const ids = await allEventIds(server.db);
      assert.deepEqual(
        events.map((e) => e.event_id),
        ids,
      );
      assert.equal(heartbeat.cursor, ids.at(-1));
      assert.equal(heartbeat.freshness.retention_days, 90);
      client.close();
    });

    it('pushes an event to a connected client promptly after it commits', async () => {
      const client = await connect(`?cursor=${(await allEventIds(server.db)).at(-1)}`);
      await untilCaughtUp(client);
      const committed = Date.now();
      await writeEvents(server.db, 1, 100);
      // Heartbeats (the hub's only other wake) are a minute apart: a delivery well inside that was
      // woken by the commit, however slow the machine; no tighter bound, which load could break.
      const message = await client.next(50_000);
      const latency = Date.now() - committed;
      assert.equal(message.event, 'feed');
      assertValidPage(message.data);
      assert.equal(message.data.events.length, 1);
      assert.equal(message.data.cursor, message.data.events[0].event_id);
      assert.ok(latency < 50_000, `delivered ${latency} ms after commit`);
      client.close();
    });

    it('filters by type, keeping the cursor on the subscription', async () => {
      const head = (await allEventIds(server.db)).at(-1)!;
      const client = await connect(`?cursor=${head}&types=agent.*`);
      const { heartbeat } = await untilCaughtUp(client);
      assert.equal(heartbeat.cursor, head);
      // Rotation: property.created, authorization.granted, publisher.adagents_changed, agent.discovered.
      await writeEvents(server.db, 8, 200);
      const message = await client.next(5000);
      assert.deepEqual(
        message.data.events.map((e: Json) => e.event_type),
        ['agent.discovered', 'agent.discovered'],
      );
      client.close();
    });
  });

  describe('extension event types', () => {
    it('sends policy events only to a subscription that names them, live and from the backlog', async () => {
      const head = (await allEventIds(server.db)).at(-1)!;
      const plain = await connect(`?cursor=${head}`);
      const policies = await connect(`?cursor=${head}&types=policy.*`);
      await untilCaughtUp(plain);
      assert.equal((await policies.next()).event, 'heartbeat');
      await server.db.transaction(async (tx) => {
        await appendEvent(tx, {
          event_type: 'policy.created',
          entity_type: 'policy',
          entity_id: 'p1',
          payload: { policy_id: 'p1' },
          actor: 'test:writer',
        });
        await appendEvent(tx, sampleEvent(3));
      });
      const live = await plain.next(5000);
      assertValidPage(live.data);
      assert.deepEqual(
        live.data.events.map((e: Json) => e.event_type),
        ['agent.discovered'],
      );
      assert.deepEqual(
        (await policies.next(5000)).data.events.map((e: Json) => e.event_type),
        ['policy.created'],
      );
      const late = await connect(`?cursor=${head}&types=policy.*`);
      const backlog = await late.next();
      assert.equal(backlog.event, 'feed');
      assert.deepEqual(
        backlog.data.events.map((e: Json) => [e.event_type, e.entity_type, e.entity_id]),
        [['policy.created', 'policy', 'p1']],
      );
      for (const client of [plain, policies, late]) client.close();
    });
  });

  describe('reconnecting and disconnecting', () => {
    it('resumes from data.cursor after a reconnect, missing nothing and repeating nothing', async () => {
      const start = (await allEventIds(server.db)).at(-1)!;
      const first = await connect(`?cursor=${start}`);
      await untilCaughtUp(first);
      await writeEvents(server.db, 3, 300);
      const page = (await first.next(5000)).data;
      first.close();
      // Written while the client is away, in several transactions.
      for (let i = 0; i < 5; i++) await writeEvents(server.db, 2, 400 + 2 * i);

      const second = await connect(`?cursor=${page.cursor}`);
      const { events } = await untilCaughtUp(second);
      const received = [...page.events, ...events].map((e: Json) => e.event_id);
      assert.deepEqual(
        received,
        (await allEventIds(server.db)).filter((id) => id > start),
      );
      second.close();
    });

    it('lets go of a client that drops the connection', async () => {
      await subscribersDropTo(0);
      const client = await connect();
      await untilCaughtUp(client);
      assert.equal(server.app.feedHub.subscriberCount, 1);
      assert.match(await (await fetch(`${server.url}/metrics`)).text(), /^feed_stream_subscribers 1$/m);
      client.close();
      assert.equal(await subscribersDropTo(0), 0);
      // And the next commit finds no one to write to.
      await writeEvents(server.db, 1, 500);
    });
  });

  describe('slow clients', () => {
    it('does not buffer for a client that stops reading, then delivers everything once when it reads again', async () => {
      const sockets = new Set<Socket>();
      server.app.server.on('connection', (socket: Socket) => sockets.add(socket));
      const start = (await allEventIds(server.db)).at(-1)!;
      const client = await connect(`?cursor=${start}&limit=50`);
      await untilCaughtUp(client);
      client.pause();

      // About 24 MB of events while the client reads nothing.
      const filler = 'x'.repeat(12_000);
      let peak = 0;
      for (let batch = 0; batch < 40; batch++) {
        await server.db.transaction(async (tx) => {
          for (let i = 0; i < 50; i++) {
            await appendEvent(tx, {
              event_type: 'agent.discovered',
              entity_type: 'agent',
              entity_id: `https://a${i}.example`,
              payload: { agent_url: `https://a${i}.example`, notes: filler },
              actor: 'test:slow',
            });
          }
        });
        // Once the hub has handed the batch to the stream, whatever the stream wrote sits in the socket.
        const [last] = await server.db.query<{ event_id: string }>(
          'select event_id from registry_events order by event_id desc limit 1',
        );
        await server.app.feedHub.until(() => (server.app.feedHub.lastRead ?? '') >= last!.event_id);
        for (const socket of sockets) peak = Math.max(peak, socket.writableLength);
      }
      // At most about one page (50 events, ~600 kB) waits in the server's buffers.
      assert.ok(peak < 2_000_000, `peak server-side buffer ${peak} bytes`);

      client.resume();
      const expected = (await allEventIds(server.db)).filter((id) => id > start);
      const received: string[] = [];
      while (received.length < expected.length) {
        const message = await client.next(10_000);
        if (message.event === 'feed') received.push(...message.data.events.map((e: Json) => e.event_id));
      }
      assert.deepEqual(received, expected);
      client.close();
    });
  });
});
