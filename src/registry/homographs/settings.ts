import { optional, settings, type Loaded } from '../../settings.ts';

export const homographsSettings = settings({
  /** File of high-value brands whose look-alike domains are held for review; deny-list.ts reads it at registration. */
  brandDenyListPath: {
    env: 'AP_BRAND_DENY_LIST',
    default: '',
    meaning: 'JSON or YAML file of high-value brands whose look-alike domains are held for review',
    parse: optional,
  },
});

export type HomographsSettings = Loaded<typeof homographsSettings>;
