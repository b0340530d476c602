import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Database, Queryable } from '../../src/db/database.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { appendEvent, type NewEvent } from '../../src/registry/feed/append.ts';
import {
  REGISTRY_EVENT_SCHEMA_ID,
  REGISTRY_FEED_RESPONSE_SCHEMA_ID,
  validateSchema,
} from '../../src/protocol/schemas.ts';
import { postgresUrl } from './engines.ts';
import { json, type Json } from './http.ts';
import { asAdmin } from './server.ts';

/** An event's keys as the feed serves them, in core/registry-event.json's order. */
export const eventKeys = ['event_id', 'event_type', 'entity_type', 'entity_id', 'payload', 'actor', 'created_at'];

/** The `n`-th of a rotation of events of different types, each with a payload its schema branch accepts. */
export function sampleEvent(n: number): NewEvent {
  const domain = `pub${n}.example`;
  const agent = `https://agent${n % 7}.example/ap`;
  const samples: NewEvent[] = [
    {
      event_type: 'property.created',
      entity_type: 'property',
      entity_id: randomUUID(),
      payload: {
        property_rid: randomUUID(),
        classification: 'property',
        source: 'contributed',
        identifiers: [{ type: 'domain', value: domain }],
      },
      actor: 'test:writer',
    },
    {
      event_type: 'authorization.granted',
      entity_type: 'authorization',
      entity_id: `${agent}|${domain}`,
      payload: { agent_url: agent, publisher_domain: domain },
      actor: 'test:writer',
    },
    {
      event_type: 'publisher.adagents_changed',
      entity_type: 'publisher',
      entity_id: domain,
      payload: { publisher_domain: domain, agents_added: [agent] },
      actor: 'test:writer',
    },
    {
      event_type: 'agent.discovered',
      entity_type: 'agent',
      entity_id: agent,
      payload: { agent_url: agent },
      actor: 'test:writer',
    },
  ];
  return samples[n % samples.length]!;
}

/** Appends `count` sample events in one transaction. */
export function writeEvents(db: Database, count: number, first = 0): Promise<void> {
  return db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) await appendEvent(tx, sampleEvent(first + i));
  });
}

/** Every event id in the log, oldest first. */
export async function allEventIds(db: Queryable): Promise<string[]> {
  return (await db.query<{ event_id: string }>('select event_id from registry_events order by event_id')).map(
    (r) => r.event_id,
  );
}

/** GET /api/registry/feed with the given query, as the admin unless told otherwise. */
export async function getFeed(
  base: string,
  query: Record<string, string | number | undefined> = {},
  headers: Record<string, string> = asAdmin,
): Promise<{ status: number; body: Json }> {
  const params = new URLSearchParams(
    Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])),
  );
  const res = await fetch(`${base}/api/registry/feed?${params}`, { headers });
  return { status: res.status, body: await json(res) };
}

/** A feed page checked against core/registry-feed-response.json, and each event against core/registry-event.json. */
export function assertValidPage(body: Json): void {
  const page = validateSchema(REGISTRY_FEED_RESPONSE_SCHEMA_ID, body);
  assert.deepEqual(page.errors, []);
  for (const event of body.events as Json[]) {
    const result = validateSchema(REGISTRY_EVENT_SCHEMA_ID, event);
    assert.deepEqual(result.errors, [], `${event.event_type} ${JSON.stringify(event.payload)}`);
    assert.match(event.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  }
}

/** Reads pages from `cursor` until `has_more` is false; returns the events and the final cursor. */
export async function readToEnd(
  base: string,
  query: { cursor?: string; types?: string; limit?: number } = {},
): Promise<{ events: Json[]; cursor: string | null }> {
  const events: Json[] = [];
  let cursor = query.cursor;
  for (;;) {
    const { status, body } = await getFeed(base, { ...query, cursor });
    assert.equal(status, 200, JSON.stringify(body));
    events.push(...(body.events as Json[]));
    cursor = body.cursor ?? undefined;
    if (!body.has_more) return { events, cursor: cursor ?? null };
  }
}

/**
 * A second connection pool on the PostgreSQL schema `db` works in, as another instance of the
 * service would have.
 */
export async function anotherPool(db: Database, poolMax: number): Promise<Database> {
  const [row] = await db.query<{ schema: string }>('select current_schema() as schema');
  return openPostgres({ url: postgresUrl, schema: row!.schema, poolMax });
}

export interface SseMessage {
  event: string;
  data: Json;
  /** performance.now() when it was parsed. */
  at: number;
}

/**
 * A Server-Sent Events client on a raw HTTP request, so a test can stop reading (a slow client) or
 * drop the connection. Messages are parsed as they arrive; `next` waits for the next one.
 */
export class SseClient {
  readonly messages: SseMessage[] = [];
  status = 0;
  private readonly request: http.ClientRequest;
  private response: http.IncomingMessage | undefined;
  private buffer = '';
  private waiters: Array<() => void> = [];
  private read = 0;
  /** The connection is gone (ended by the server, dropped, or closed here): no message will come. */
  private gone = false;

  constructor(url: string, headers: Record<string, string> = asAdmin) {
    this.request = http.get(url, { headers: { accept: 'text/event-stream', ...headers } });
    this.request.on('error', () => this.hangUp());
  }

  /** Resolves once the response headers arrived. */
  opened(): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      this.request.once('response', (res) => {
        this.response = res;
        this.status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => this.parse(chunk));
        res.on('close', () => this.hangUp());
        resolve(res);
      });
      this.request.once('error', reject);
    });
  }

  /** The next message not yet taken, waiting up to `timeoutMs` for it. */
  async next(timeoutMs = 10_000): Promise<SseMessage> {
    const deadline = Date.now() + timeoutMs;
    while (this.read >= this.messages.length) {
      const left = deadline - Date.now();
      if (this.gone) throw new Error(`the stream ended (after ${this.messages.length} messages)`);
      if (left <= 0) throw new Error(`no SSE message within ${timeoutMs} ms (have ${this.messages.length})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.messages[this.read++]!;
  }

  /** Stops reading from the socket (the server's writes back up) until `resume`. */
  pause(): void {
    this.response?.pause();
  }

  resume(): void {
    this.response?.resume();
  }

  close(): void {
    this.request.destroy();
  }

  private parse(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length > 0)
        this.messages.push({ event, data: JSON.parse(data.join('\n')) as Json, at: performance.now() });
    }
    this.wakeAll();
  }

  private hangUp(): void {
    this.gone = true;
    this.wakeAll();
  }

  private wakeAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
