import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../src/db/database.ts';
import { appendEvent } from '../src/registry/feed/append.ts';
import { sampleEvent, SseClient } from '../test/support/feed.ts';
import { openSharedSchema } from '../test/support/shared-schema.ts';

const TOKEN = 'bench-admin-key-0123456789abcdef0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const EVENTS = 20_000;

/**
 * The change feed on PostgreSQL, against an `ap serve` process on a fresh schema:
 * 1. a 10,000-event page against a 100-event page, alternating (latency, and events per second);
 * 2. commit-to-delivery latency of the SSE stream with 1,000 subscribers against 1 subscriber.
 */
export async function feedBench(): Promise<void> {
  const shared = await openSharedSchema();
  try {
    const ap = await shared.serve({ AP_ADMIN_KEY: TOKEN });
    for (let i = 0; i < EVENTS; i += 500) await write(shared.db, 500, i);
    await pages(ap.url);
    await delivery(ap.url, shared.db);
  } finally {
    await shared.close();
  }
}

async function write(db: Database, count: number, first: number): Promise<void> {
  await db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) await appendEvent(tx, sampleEvent(first + i));
  });
}

async function pages(base: string): Promise<void> {
  const rounds = Number(process.env.BENCH_PAGE_ROUNDS ?? 30);
  const timings: Record<number, number[]> = { 100: [], 10000: [] };
  const fetchPage = async (limit: number) => {
    const started = performance.now();
    const res = await fetch(`${base}/api/registry/feed?limit=${limit}`, { headers: auth });
    const body = (await res.json()) as { events: unknown[] };
    if (!res.ok || body.events.length !== limit)
      throw new Error(`feed page of ${limit}: HTTP ${res.status}, ${body.events.length} events`);
    return performance.now() - started;
  };
  for (const limit of [100, 10000]) await fetchPage(limit); // warm-up
  for (let i = 0; i < rounds; i++)
    for (const limit of [100, 10000] as const) timings[limit]!.push(await fetchPage(limit));
  const p = (limit: number, q: number) => percentile(timings[limit]!, q);
  console.log(`feed pages on PostgreSQL: ${EVENTS} events in the log, ${rounds} sequential requests each, alternating`);
  console.table({
    '100 events': {
      'p50 ms': round(p(100, 50)),
      'p99 ms': round(p(100, 99)),
      'events/s': Math.round((100 / p(100, 50)) * 1000),
    },
    '10,000 events': {
      'p50 ms': round(p(10000, 50)),
      'p99 ms': round(p(10000, 99)),
      'events/s': Math.round((10000 / p(10000, 50)) * 1000),
    },
  });
  console.log(
    `feed page p50 latency ratio 10,000/100 events: ${(p(10000, 50) / p(100, 50)).toFixed(2)} (for 100x the events)`,
  );
}

async function delivery(base: string, db: Database): Promise<void> {
  const commits = Number(process.env.BENCH_FEED_COMMITS ?? 50);
  const measure = async (subscribers: number) => {
    const head = (
      await db.query<{ event_id: string }>('select event_id from registry_events order by event_id desc limit 1')
    )[0]!.event_id;
    const clients = Array.from(
      { length: subscribers },
      () => new SseClient(`${base}/api/registry/feed/stream?cursor=${head}`, auth),
    );
    try {
      await Promise.all(clients.map((c) => c.opened()));
      // Caught up: each client's first message is its heartbeat.
      await Promise.all(clients.map((c) => c.next(30_000)));
      const latencies: number[] = [];
      for (let k = 0; k < commits; k++) {
        const started = performance.now();
        await write(db, 1, k);
        for (const client of clients) {
          let message = await client.next(30_000);
          while (message.event === 'heartbeat') message = await client.next(30_000);
          if (message.data.events.length !== 1)
            throw new Error(`expected one event, got ${message.data.events.length}`);
          latencies.push(message.at - started);
        }
        await sleep(20);
      }
      return latencies;
    } finally {
      for (const client of clients) client.close();
    }
  };
  const one = await measure(1);
  const many = await measure(1000);
  console.log(
    `feed stream on PostgreSQL: ${commits} commits of one event each; latency from the writer's BEGIN to the message parsed by each subscriber`,
  );
  console.table({
    '1 subscriber': { 'p50 ms': round(percentile(one, 50)), 'p99 ms': round(percentile(one, 99)) },
    '1,000 subscribers': { 'p50 ms': round(percentile(many, 50)), 'p99 ms': round(percentile(many, 99)) },
  });
  console.log(
    `feed stream delivery p50 ratio 1,000/1 subscribers: ${(percentile(many, 50) / percentile(one, 50)).toFixed(2)}`,
  );
  console.log(
    `feed stream delivery p99 ratio 1,000/1 subscribers: ${(percentile(many, 99) / percentile(one, 99)).toFixed(2)}`,
  );
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((q / 100) * sorted.length))]!;
}

const round = (ms: number) => Math.round(ms * 100) / 100;
