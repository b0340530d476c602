import { perWindow, settings, type Loaded } from '../settings.ts';

/** The limits registry/limits.ts applies to the bulk resolves and to every capability's saves (spec section 8). */
export const registryLimits = settings({
  bulkResolvePerMinute: {
    env: 'RATE_LIMIT_BULK_RESOLVE_PER_MINUTE',
    default: '20',
    meaning: 'bulk resolve requests per minute per IP',
    parse: perWindow,
  },
  savesPerHourPerPrincipal: {
    env: 'RATE_LIMIT_SAVES_PER_HOUR',
    default: '60',
    meaning: 'saves per hour per user or key',
    parse: perWindow,
  },
  savesPerHourPerOrganization: {
    env: 'RATE_LIMIT_SAVES_PER_HOUR_PER_ORG',
    default: '300',
    meaning: 'saves per hour per organization',
    parse: perWindow,
  },
  savesPerHourPerIp: {
    env: 'RATE_LIMIT_SAVES_PER_HOUR_PER_IP',
    default: '120',
    meaning: 'saves per hour per IP',
    parse: perWindow,
  },
});

export type RegistryLimits = Loaded<typeof registryLimits>;
