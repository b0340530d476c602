import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database.ts';
import type { EventRow } from '../../feed/index.ts';
import type { AgentSearch } from './agent-search.ts';

/** How often every enrolled agent's part is read again: changes the feed does not carry (a private agent's) show within this. */
const fullReloadMs = 60_000;

/**
 * Keeps the enrolled agents' part of the profiles current: read whole at start (the search is
 * ready once they are read and the profiles derived from the live index), again for one agent when the feed says it changed (on any instance), and whole
 * once a minute. The graph's part follows the authorization index by itself.
 */
export function followAgentEvents(app: FastifyInstance, db: Database, search: AgentSearch): void {
  let loaded = false;
  let timer: NodeJS.Timeout | undefined;
  const reload = (agentUrl?: string) =>
    search.reload(db, agentUrl).catch((err: unknown) => app.log.warn({ err, agentUrl }, 'agent profiles could not be read; the next reload tries again'));
  app.readiness.add('agent profiles', () => (loaded ? undefined : 'still reading the enrolled agents and deriving inventory profiles'));
  app.addHook('onReady', async () => {
    const unsubscribe = app.feedHub.subscribe({
      follower: true,
      deliver(batch: readonly EventRow[]) {
        for (const event of batch) if (event.event_type.startsWith('agent.')) void reload((JSON.parse(event.json) as { entity_id: string }).entity_id);
      },
      heartbeat() {},
      end() {},
    });
    app.addHook('preClose', async () => {
      unsubscribe();
      clearInterval(timer);
    });
    // In the background, as the index builds itself: the profiles are derived once it is live, so
    // the first search does not pay for deriving every agent's (a second at a million properties).
    void (async () => {
      await reload();
      await app.authorizationIndex.until((follower) => follower.live);
      const started = performance.now();
      search.warm();
      loaded = true;
      app.log.info({ agents: search.profiles.size, ms: Math.round(performance.now() - started) }, 'agent inventory profiles derived');
    })();
    timer = setInterval(() => void reload(), fullReloadMs).unref();
  });
}
