import { nonEmpty, reader, type Env, type Setting } from '../../settings.ts';

export interface HomographsSettings {
  /** File of high-value brands whose look-alike domains are held for review; deny-list.ts reads it at registration. */
  brandDenyListPath: string | undefined;
}

export const homographsSettings = {
  AP_BRAND_DENY_LIST: {
    default: '',
    meaning: 'JSON or YAML file of high-value brands whose look-alike domains are held for review',
  },
} as const satisfies Record<string, Setting>;

export function loadHomographsSettings(env: Env): HomographsSettings {
  return { brandDenyListPath: nonEmpty(reader(homographsSettings, env)('AP_BRAND_DENY_LIST')) };
}
