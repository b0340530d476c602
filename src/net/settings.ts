import { nonEmpty, reader, type Env, type Setting } from '../settings.ts';

export interface NetSettings {
  /** Hosts the fetch client may reach although they are not public (development only). */
  fetchAllow: string | undefined;
}

export const netSettings = {
  AP_FETCH_ALLOW: { default: '', meaning: 'development only: non-public hosts the fetch client may reach (see docs)' },
} as const satisfies Record<string, Setting>;

export function loadNetSettings(env: Env): NetSettings {
  return { fetchAllow: nonEmpty(reader(netSettings, env)('AP_FETCH_ALLOW')) };
}
