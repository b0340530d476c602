import { perWindow, settings, type Loaded } from '../../settings.ts';

/** Agent probes (the three /api/public probing endpoints together) per minute: per IP without a credential, per principal with one. */
export const agentProbeLimits = settings({
  probesPerMinutePerIp: {
    env: 'RATE_LIMIT_PROBES_PER_MINUTE',
    default: '10',
    meaning:
      'agent probes (discover-agent, agent-formats, agent-products together) per minute per IP, for callers without a credential',
    parse: perWindow,
  },
  probesPerMinutePerPrincipal: {
    env: 'RATE_LIMIT_PROBES_PER_MINUTE_PER_USER',
    default: '30',
    meaning: 'agent probes per minute per user or key',
    parse: perWindow,
  },
});

export type AgentProbeLimits = Loaded<typeof agentProbeLimits>;
