import { perWindow, settings, type Loaded } from '../../settings.ts';

export const adagentsToolsLimits = settings({
  /** Per IP, for each of the adagents tools (validate, create) and the manifest-refs lookup. */
  adagentsToolsPerMinute: {
    env: 'RATE_LIMIT_ADAGENTS_TOOLS_PER_MINUTE',
    default: '60',
    meaning:
      'requests per minute per IP to each of /api/adagents/validate, /api/adagents/create and /api/manifest-refs/lookup',
    parse: perWindow,
  },
  /** Per IP and per user: the publisher validation fetches live. */
  validatePublisherPerMinute: {
    env: 'RATE_LIMIT_VALIDATE_PUBLISHER_PER_MINUTE',
    default: '10',
    meaning: 'publisher validations (/api/public/validate-publisher) per minute per IP, and per user',
    parse: perWindow,
  },
});

export type AdagentsToolsLimits = Loaded<typeof adagentsToolsLimits>;
