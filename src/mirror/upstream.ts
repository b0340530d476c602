import { createParser } from 'eventsource-parser';
import type { SafeFetch } from '../net/safe-fetch.ts';
import { isRecord } from '../protocol/json-values.ts';

/** The largest snapshot page the upstream serves (its `limit` maximum). */
const snapshotLimit = 1000;
/** A snapshot page of 1,000 entities with their declarations is a few MiB at most. */
const pageBytes = 64 * 1024 * 1024;
/** The upstream sends a heartbeat every 15 s by default: silence for this long means the stream is dead. */
const streamIdleMs = 60_000;

export interface SnapshotPage {
  cursor: string | null;
  items: Array<{ entity_type: string; entity_id: string; data: Record<string, unknown> }>;
  next_page_token: string | null;
  has_more: boolean;
}

export interface FeedEvent {
  event_id: string;
  event_type: string;
  entity_id: string;
  payload: Record<string, unknown>;
}

/** A message of the upstream's feed stream: a page of events, or a heartbeat while caught up. */
export type StreamMessage =
  | { event: 'feed'; events: FeedEvent[]; cursor: string | null; has_more: boolean }
  | { event: 'heartbeat'; cursor: string | null };

/** The upstream no longer holds our cursor (410): the spec's answer is to bootstrap again. */
export class CursorExpired extends Error {}

/** The upstream answered, but not as a registry does: a wrong URL or credential, not a passing outage. */
export class UpstreamRefused extends Error {}

export interface PublicAgent {
  agent_url: string;
  visibility: string;
  member?: { slug: string; display_name: string };
}

/**
 * The registry a mirror follows, read over its public API with the operator's credential: the
 * snapshot to bootstrap from, the feed stream to follow and the public agent catalog. Every
 * request goes through the SSRF-safe client.
 */
export class Upstream {
  readonly url: URL;
  private readonly headers: Record<string, string>;
  private readonly fetcher: SafeFetch;

  constructor(url: string, token: string | undefined, fetcher: SafeFetch) {
    this.url = new URL(url.endsWith('/') ? url : `${url}/`);
    this.headers = { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
    this.fetcher = fetcher;
  }

  /** One page of the upstream's registry snapshot (`token` undefined: the first). */
  async snapshotPage(token: string | undefined): Promise<SnapshotPage> {
    const query = new URLSearchParams({ limit: String(snapshotLimit), ...(token ? { page_token: token } : {}) });
    const body = await this.getJson(`api/registry/snapshot?${query}`, pageBytes);
    if (!isRecord(body) || !Array.isArray(body['items']) || typeof body['has_more'] !== 'boolean')
      throw new UpstreamRefused(`${this.url.href} did not answer a snapshot page`);
    return body as unknown as SnapshotPage;
  }

  /** A page of the public agent catalog (`cursor` undefined: the first), or the one agent named. */
  async agents(query: {
    cursor?: string;
    agent_url?: string;
  }): Promise<{ agents: PublicAgent[]; cursor: string | null }> {
    const params = new URLSearchParams({ limit: '500', ...query });
    const body = await this.getJson(`api/registry/agents?${params}`, pageBytes);
    if (!isRecord(body) || !Array.isArray(body['agents']))
      throw new UpstreamRefused(`${this.url.href} did not answer an agent list`);
    return {
      agents: body['agents'] as PublicAgent[],
      cursor: typeof body['cursor'] === 'string' ? body['cursor'] : null,
    };
  }

  /**
   * The feed stream from `cursor`, message by message, until it ends or `signal` aborts. Throws
   * CursorExpired on 410, UpstreamRefused on another refusal, a FetchError when unreachable.
   */
  async *follow(cursor: string | undefined, signal: AbortSignal): AsyncGenerator<StreamMessage> {
    // Every type: the registry's own (`resolution.*`) come only to a subscription that names them.
    const query = new URLSearchParams({ types: '*', ...(cursor === undefined ? {} : { cursor }) });
    const stream = await this.fetcher.open(new URL(`api/registry/feed/stream?${query}`, this.url), {
      headers: { ...this.headers, accept: 'text/event-stream' },
      idleMs: streamIdleMs,
      signal,
    });
    if (stream.status !== 200) {
      const text = await stream.text().catch(() => '');
      if (stream.status === 410) throw new CursorExpired(text);
      throw new UpstreamRefused(`${this.url.href} refused the feed stream (${stream.status}): ${text.slice(0, 200)}`);
    }
    const messages: StreamMessage[] = [];
    const parser = createParser({
      onEvent: ({ event, data }) => {
        const body = JSON.parse(data) as Record<string, unknown>;
        if (event === 'feed') messages.push({ event, ...(body as Omit<StreamMessage & { event: 'feed' }, 'event'>) });
        else if (event === 'heartbeat') messages.push({ event, cursor: (body['cursor'] as string | null) ?? null });
      },
    });
    // A character may be split between two chunks.
    const decoder = new TextDecoder('utf-8');
    try {
      for await (const chunk of stream.body) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        yield* messages.splice(0);
      }
    } finally {
      stream.close();
    }
  }

  private async getJson(path: string, maxBytes: number): Promise<unknown> {
    const response = await this.fetcher.fetch(new URL(path, this.url), {
      headers: this.headers,
      maxBytes,
      redirect: 'error',
    });
    if (response.status !== 200)
      throw new UpstreamRefused(`${this.url.href} answered ${response.status}: ${response.text().slice(0, 200)}`);
    return response.json();
  }
}
