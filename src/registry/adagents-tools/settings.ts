import { integer, reader, type Env, type Setting } from '../../settings.ts';

export interface AdagentsToolsLimits {
  /** Per IP, for each of the adagents tools (validate, create) and the manifest-refs lookup. */
  adagentsToolsPerMinute: number;
  /** Per IP and per user: the publisher validation fetches live. */
  validatePublisherPerMinute: number;
}

export const adagentsToolsSettings = {
  RATE_LIMIT_ADAGENTS_TOOLS_PER_MINUTE: {
    default: '60',
    meaning:
      'requests per minute per IP to each of /api/adagents/validate, /api/adagents/create and /api/manifest-refs/lookup',
  },
  RATE_LIMIT_VALIDATE_PUBLISHER_PER_MINUTE: {
    default: '10',
    meaning: 'publisher validations (/api/public/validate-publisher) per minute per IP, and per user',
  },
} as const satisfies Record<string, Setting>;

export function loadAdagentsToolsLimits(env: Env): AdagentsToolsLimits {
  const get = reader(adagentsToolsSettings, env);
  return {
    adagentsToolsPerMinute: integer(
      'RATE_LIMIT_ADAGENTS_TOOLS_PER_MINUTE',
      get('RATE_LIMIT_ADAGENTS_TOOLS_PER_MINUTE'),
      1,
      1e6,
    ),
    validatePublisherPerMinute: integer(
      'RATE_LIMIT_VALIDATE_PUBLISHER_PER_MINUTE',
      get('RATE_LIMIT_VALIDATE_PUBLISHER_PER_MINUTE'),
      1,
      1e6,
    ),
  };
}
