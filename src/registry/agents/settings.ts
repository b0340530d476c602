import { flag, settings, type Loaded } from '../../settings.ts';

export const agentCatalogSettings = settings({
  /** Whether this instance probes the catalog's enrolled agents (health, capabilities, compliance). */
  probeWorker: {
    env: 'PROBE_WORKER',
    default: 'true',
    meaning: "probe the agent catalog's enrolled agents from this instance (true or false)",
    parse: flag,
  },
  /** Whether this instance publishes inventory profile changes to the feed (one instance at a time does). */
  profileEvents: {
    env: 'AGENT_PROFILE_EVENTS',
    default: 'true',
    meaning:
      'publish agent.profile_updated events for inventory profile changes from this instance (true or false; one instance at a time does)',
    parse: flag,
  },
});

export type AgentCatalogSettings = Loaded<typeof agentCatalogSettings>;
