import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { BackgroundPass } from '../../../jobs/background-pass.ts';
import type { Readiness } from '../../../http/health.ts';
import type { EventRow, FeedHub } from '../../feed/index.ts';
import type { IndexSource } from '../../lookups/index.ts';
import type { AgentSearch } from './agent-search.ts';
import { ProfilePublisher } from './profile-publisher.ts';

/** How often every enrolled agent's part is read again: changes the feed does not carry (a private agent's) show within this. */
const fullReloadMs = 60_000;
/** How often profile changes are published to the feed (AGENT_PROFILE_EVENTS). */
const publishMs = 30_000;

/**
 * Keeps the enrolled agents' part of the profiles current: read whole at start (the search is
 * ready once they are read and the profiles derived from the live index), again for one agent
 * when the feed says it changed (on any instance), and whole once a minute. The graph's part
 * follows the authorization index by itself. With
 * AGENT_PROFILE_EVENTS, profile changes are published to the feed every 30 s (ProfilePublisher).
 */
export function followAgentEvents(
  app: FastifyInstance,
  { db, clock, config }: Pick<AppContext, 'db' | 'clock' | 'config'>,
  search: AgentSearch,
  { hub, index, readiness }: { hub: FeedHub; index: IndexSource; readiness: Readiness },
): void {
  let loaded = false;
  let timer: NodeJS.Timeout | undefined;
  const reload = (agentUrl?: string) =>
    search
      .reload(db, agentUrl)
      .catch((err: unknown) =>
        app.log.warn({ err, agentUrl }, 'agent profiles could not be read; the next reload tries again'),
      );
  readiness.add('agent profiles', () =>
    loaded ? undefined : 'still reading the enrolled agents and deriving inventory profiles',
  );
  app.addHook('onReady', async () => {
    const unsubscribe = hub.subscribe({
      follower: true,
      deliver(batch: readonly EventRow[]) {
        for (const event of batch)
          if (event.event_type.startsWith('agent.'))
            void reload((JSON.parse(event.json) as { entity_id: string }).entity_id);
      },
      heartbeat() {},
      end() {},
    });
    const publisher = new ProfilePublisher();
    const publishing = new BackgroundPass(
      async () => void (await publisher.publish(db, search.profiles.current(index.index), clock.now())),
      (err) => app.log.warn({ err }, 'agent profile changes could not be published; the next pass tries again'),
      publishMs,
    );
    app.addHook('preClose', async () => {
      unsubscribe();
      clearInterval(timer);
      await publishing.stop();
    });
    // In the background, as the index builds itself: the profiles are derived once it is live, so
    // the first search does not pay for deriving every agent's (a second at a million properties).
    void (async () => {
      await reload();
      await index.until((follower) => follower.live);
      const started = performance.now();
      search.warm();
      loaded = true;
      readiness.changed();
      app.log.info(
        { agents: search.profiles.size, ms: Math.round(performance.now() - started) },
        'agent inventory profiles derived',
      );
      if (config.profileEvents) publishing.start();
    })();
    timer = setInterval(() => void reload(), fullReloadMs).unref();
  });
}
