import { setTimeout as pause } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import { ApError } from '../protocol/errors.ts';
import {
  AuthorizationIndex,
  CatalogMembers,
  FeedPosition,
  indexReads,
  type CatalogMember,
  type IndexSource,
} from '../registry/lookups/index.ts';
import { Resolutions } from './resolutions.ts';
import { CursorExpired, type FeedEvent, type PublicAgent, type Upstream } from './upstream.ts';

/** How often the public catalog's members are read again whole, as the upstream itself does. */
const membersReloadMs = 60_000;

/**
 * An upstream registry's authorization index, kept in this process: bootstrapped from the
 * upstream's snapshot, then following its feed stream from the snapshot's cursor. While the
 * upstream is unreachable the last state keeps serving, and on its return the stream resumes from
 * the last cursor applied, so nothing is skipped; a 410 (the cursor expired) bootstraps again,
 * building a new index beside the one serving and swapping them once whole.
 *
 * The public agent catalog's members (the domain lookup names them) are read at bootstrap, again
 * for one agent when an `agent.*` event names it, and whole once a minute.
 *
 * Nothing is verified that the feed does not claim (spec section 5, rule 8): the mirror answers
 * what the upstream says.
 */
export class RemoteFollower extends FeedPosition implements IndexSource {
  index = new AuthorizationIndex();
  /** What resolve answers, from the `resolution.*` events and snapshot section. */
  resolutions = new Resolutions();
  /** Bootstrapped and caught up once; from then on it serves, even while the upstream is away. */
  live = false;
  readonly members = new CatalogMembers();
  /** How many times the index was built from a snapshot (1 after the first bootstrap). */
  bootstraps = 0;
  /** Connected to the stream and caught up with it. */
  private current = false;
  /** When the mirror last knew it was current, in clock milliseconds. */
  private currentAt: number | undefined;
  private closed = false;
  private readonly stop = new AbortController();
  private readonly upstream: Upstream;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;
  private membersTimer: NodeJS.Timeout | undefined;

  constructor(parts: { upstream: Upstream; clock: Clock; log: FastifyBaseLogger }) {
    super();
    ({ upstream: this.upstream, clock: this.clock, log: this.log } = parts);
  }

  /** How far behind the upstream this mirror may be, in ms: 0 while streaming and caught up; null before the first bootstrap. */
  lagMs(): number | null {
    if (this.currentAt === undefined) return null;
    return this.current ? 0 : this.clock.now().getTime() - this.currentAt;
  }

  /** What resolve answers, once the upstream's state is loaded; before, resolve answers 503 rather than 404 for what is yet to come. */
  liveResolutions(): Resolutions {
    if (!this.live)
      throw new ApError('service_unavailable', 'The mirror is still loading its upstream’s state; retry shortly.');
    return this.resolutions;
  }

  /** Whether the stream is open and caught up. */
  get streaming(): boolean {
    return this.current;
  }

  start(): void {
    void this.run();
    this.membersTimer = setInterval(
      () =>
        void this.readMembers()
          .then((all) => this.members.replace(all))
          .catch((err: unknown) => this.log.warn({ err }, 'the upstream’s agent catalog could not be read; retrying')),
      membersReloadMs,
    ).unref();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.membersTimer);
    this.stop.abort();
    this.conditions.changed();
  }

  private async run(): Promise<void> {
    let bootstrap = true;
    for (let failures = 0; !this.closed;) {
      try {
        if (bootstrap) await this.bootstrap();
        bootstrap = false;
        failures = 0;
        await this.follow(() => (failures = 0));
      } catch (err) {
        if (this.closed) return;
        if (err instanceof CursorExpired) {
          this.log.warn({ cursor: this.cursor }, 'the upstream no longer holds our cursor; bootstrapping again');
          bootstrap = true;
          continue;
        }
        this.log.warn({ err }, 'the upstream is unreachable; serving the last state and retrying');
        await pause(Math.min(10_000, 100 * 2 ** failures++), undefined, { signal: this.stop.signal }).catch(() => {});
      } finally {
        this.setCurrent(false);
      }
    }
  }

  /** Builds a whole index from the upstream's snapshot beside the one serving, then swaps them. */
  private async bootstrap(): Promise<void> {
    const started = performance.now();
    const index = new AuthorizationIndex();
    const resolutions = new Resolutions();
    let token: string | undefined;
    let cursor: string | null;
    for (;;) {
      const page = await this.upstream.snapshotPage(token);
      for (const item of page.items) {
        if (item.entity_type === 'resolution') resolutions.apply(item.entity_id, item.data);
        else index.apply(item.entity_type, item.data);
      }
      cursor = page.cursor;
      if (!page.has_more || page.next_page_token === null) break;
      token = page.next_page_token;
    }
    const members = await this.readMembers();
    if (this.closed) return;
    this.index = index;
    this.resolutions = resolutions;
    this.cursor = cursor ?? undefined;
    this.members.replace(members);
    this.bootstraps++;
    this.log.info(
      {
        ...index.size,
        ...resolutions.size,
        cursor: this.cursor ?? null,
        ms: Math.round(performance.now() - started),
        heapMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
      },
      'mirror bootstrapped from the upstream’s snapshot',
    );
    this.conditions.changed();
  }

  private async follow(heard: () => void): Promise<void> {
    for await (const message of this.upstream.follow(this.cursor, this.stop.signal)) {
      heard();
      if (message.event === 'feed') {
        await this.apply(message.events);
        if (message.cursor !== null && (this.cursor === undefined || message.cursor > this.cursor))
          this.cursor = message.cursor;
        this.setCurrent(!message.has_more);
      } else this.setCurrent(true);
      this.conditions.changed();
    }
  }

  /** Applies a page of events; the cursor moves once the members they name are read again too. */
  private async apply(events: readonly FeedEvent[]): Promise<void> {
    const agents = new Set<string>();
    for (const event of events) {
      if (this.cursor !== undefined && event.event_id <= this.cursor) continue;
      try {
        if (indexReads(event.event_type)) this.index.apply(event.event_type, event.payload);
        else if (event.event_type.startsWith('resolution.')) this.resolutions.apply(event.entity_id, event.payload);
        else if (event.event_type.startsWith('agent.')) agents.add(event.entity_id);
      } catch (err) {
        this.log.error({ err, event_id: event.event_id }, 'the mirror could not apply an event; skipping it');
      }
    }
    for (const agent of agents) {
      const { agents: listed } = await this.upstream.agents({ agent_url: agent });
      this.members.set(agent, memberOf(listed.find((a) => a.agent_url === agent)));
    }
  }

  private async readMembers(): Promise<Map<string, CatalogMember>> {
    const all = new Map<string, CatalogMember>();
    let cursor: string | undefined;
    do {
      const page = await this.upstream.agents(cursor === undefined ? {} : { cursor });
      for (const agent of page.agents) {
        const member = memberOf(agent);
        if (member) all.set(agent.agent_url, member);
      }
      cursor = page.cursor ?? undefined;
    } while (cursor !== undefined && !this.closed);
    return all;
  }

  private setCurrent(current: boolean): void {
    if (current || this.current) this.currentAt = this.clock.now().getTime();
    const turned = current !== this.current;
    this.current = current;
    if (current && !this.live && this.bootstraps > 0) this.live = true;
    if (turned) this.conditions.changed();
  }
}

/** A listed agent's member, as the lookups name it: only publicly listed agents are members' in answers. */
function memberOf(agent: PublicAgent | undefined): CatalogMember | undefined {
  return agent?.visibility === 'public' && agent.member
    ? { slug: agent.member.slug, display_name: agent.member.display_name }
    : undefined;
}
