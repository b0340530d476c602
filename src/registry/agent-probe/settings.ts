import { integer, reader, type Env, type Setting } from '../../settings.ts';

/** Agent probes (the three /api/public probing endpoints together) per minute: per IP without a credential, per principal with one. */
export interface AgentProbeLimits {
  probesPerMinutePerIp: number;
  probesPerMinutePerPrincipal: number;
}

export const agentProbeSettings = {
  RATE_LIMIT_PROBES_PER_MINUTE: {
    default: '10',
    meaning:
      'agent probes (discover-agent, agent-formats, agent-products together) per minute per IP, for callers without a credential',
  },
  RATE_LIMIT_PROBES_PER_MINUTE_PER_USER: { default: '30', meaning: 'agent probes per minute per user or key' },
} as const satisfies Record<string, Setting>;

export function loadAgentProbeLimits(env: Env): AgentProbeLimits {
  const get = reader(agentProbeSettings, env);
  return {
    probesPerMinutePerIp: integer('RATE_LIMIT_PROBES_PER_MINUTE', get('RATE_LIMIT_PROBES_PER_MINUTE'), 1, 1e6),
    probesPerMinutePerPrincipal: integer(
      'RATE_LIMIT_PROBES_PER_MINUTE_PER_USER',
      get('RATE_LIMIT_PROBES_PER_MINUTE_PER_USER'),
      1,
      1e6,
    ),
  };
}
