import { integer, reader, type Env, type Setting } from '../settings.ts';

/** The limits registry/limits.ts applies to the bulk resolves and to every capability's saves (spec section 8). */
export interface RegistryLimits {
  bulkResolvePerMinute: number;
  savesPerHourPerPrincipal: number;
  savesPerHourPerOrganization: number;
  savesPerHourPerIp: number;
}

export const registrySettings = {
  RATE_LIMIT_BULK_RESOLVE_PER_MINUTE: { default: '20', meaning: 'bulk resolve requests per minute per IP' },
  RATE_LIMIT_SAVES_PER_HOUR: { default: '60', meaning: 'saves per hour per user or key' },
  RATE_LIMIT_SAVES_PER_HOUR_PER_ORG: { default: '300', meaning: 'saves per hour per organization' },
  RATE_LIMIT_SAVES_PER_HOUR_PER_IP: { default: '120', meaning: 'saves per hour per IP' },
} as const satisfies Record<string, Setting>;

export function loadRegistryLimits(env: Env): RegistryLimits {
  const get = reader(registrySettings, env);
  const perWindow = (name: keyof typeof registrySettings) => integer(name, get(name), 1, 1e6);
  return {
    bulkResolvePerMinute: perWindow('RATE_LIMIT_BULK_RESOLVE_PER_MINUTE'),
    savesPerHourPerPrincipal: perWindow('RATE_LIMIT_SAVES_PER_HOUR'),
    savesPerHourPerOrganization: perWindow('RATE_LIMIT_SAVES_PER_HOUR_PER_ORG'),
    savesPerHourPerIp: perWindow('RATE_LIMIT_SAVES_PER_HOUR_PER_IP'),
  };
}
