import { optional, settings, type Loaded } from '../settings.ts';

export const netSettings = settings({
  /** Hosts the fetch client may reach although they are not public (development only). */
  fetchAllow: {
    env: 'AP_FETCH_ALLOW',
    default: '',
    meaning: 'development only: non-public hosts the fetch client may reach (see docs)',
    parse: optional,
  },
});

export type NetSettings = Loaded<typeof netSettings>;
