import { integer, reader, type Env, type Setting } from '../../settings.ts';

export interface LookupsSettings {
  /** Answers of the check and the domain lookup kept per index state (0 keeps none). */
  lookupCacheEntries: number;
}

export const lookupsSettings = {
  LOOKUP_CACHE_ENTRIES: {
    default: '10000',
    meaning:
      'answers of the authorization check and the domain lookup kept in memory until the next change to the registry graph (0 keeps none)',
  },
} as const satisfies Record<string, Setting>;

export function loadLookupsSettings(env: Env): LookupsSettings {
  const get = reader(lookupsSettings, env);
  return { lookupCacheEntries: integer('LOOKUP_CACHE_ENTRIES', get('LOOKUP_CACHE_ENTRIES'), 0, 1e7) };
}
