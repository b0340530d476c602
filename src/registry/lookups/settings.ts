import { integer, settings, type Loaded } from '../../settings.ts';

export const lookupsSettings = settings({
  /** Answers of the check and the domain lookup kept per index state (0 keeps none). */
  lookupCacheEntries: {
    env: 'LOOKUP_CACHE_ENTRIES',
    default: '10000',
    meaning:
      'answers of the authorization check and the domain lookup kept in memory until the next change to the registry graph (0 keeps none)',
    parse: integer(0, 1e7),
  },
});

export type LookupsSettings = Loaded<typeof lookupsSettings>;
