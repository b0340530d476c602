import { flag, reader, type Env, type Setting } from '../../settings.ts';

export interface AgentCatalogSettings {
  /** Whether this instance probes the catalog's enrolled agents (health, capabilities, compliance). */
  probeWorker: boolean;
  /** Whether this instance publishes inventory profile changes to the feed (one instance at a time does). */
  profileEvents: boolean;
}

export const agentCatalogSettings = {
  PROBE_WORKER: {
    default: 'true',
    meaning: "probe the agent catalog's enrolled agents from this instance (true or false)",
  },
  AGENT_PROFILE_EVENTS: {
    default: 'true',
    meaning:
      'publish agent.profile_updated events for inventory profile changes from this instance (true or false; one instance at a time does)',
  },
} as const satisfies Record<string, Setting>;

export function loadAgentCatalogSettings(env: Env): AgentCatalogSettings {
  const get = reader(agentCatalogSettings, env);
  return {
    probeWorker: flag('PROBE_WORKER', get('PROBE_WORKER')),
    profileEvents: flag('AGENT_PROFILE_EVENTS', get('AGENT_PROFILE_EVENTS')),
  };
}
