import { isLoopbackHost } from '../../net/address-policy.ts';
import { ConfigError, integer, optional, perWindow, settings, type Loaded } from '../../settings.ts';

export interface BrandsSettings {
  /** The third-party brand-data API `/api/brands/enrich` asks first; undefined: the site's own metadata only. */
  brandDataProvider: BrandDataProviderConfig | undefined;
}

/** A third-party brand-data API: `GET {url}/brands/{domain}` with `Authorization: Bearer {key}`. */
export interface BrandDataProviderConfig {
  /** Without a trailing slash. */
  url: string;
  key: string;
  timeoutMs: number;
}

export const brandsLimits = settings({
  /** `/api/brands/enrich` fetches on an anonymous caller's behalf, so it is limited per IP (the spec sets no limit). */
  enrichPerMinutePerIp: {
    env: 'RATE_LIMIT_ENRICH_PER_MINUTE',
    default: '30',
    meaning: 'brand enrichment requests per minute per IP',
    parse: perWindow,
  },
});

export type BrandsLimits = Loaded<typeof brandsLimits>;

export const brandsSettings = settings(
  {
    url: {
      env: 'BRAND_DATA_PROVIDER_URL',
      default: '',
      meaning:
        "base URL of a third-party brand-data API that /api/brands/enrich asks first (GET <url>/brands/<domain>); https, or http on a loopback host; unset: the site's own metadata only",
      parse: optional,
    },
    key: {
      env: 'BRAND_DATA_PROVIDER_KEY',
      default: '',
      meaning: "the brand-data API's key, sent as a Bearer token (required with BRAND_DATA_PROVIDER_URL)",
      parse: optional,
    },
    timeoutMs: {
      env: 'BRAND_DATA_PROVIDER_TIMEOUT_MS',
      default: '5000',
      meaning: 'time allowed for one answer of the brand-data API (100 to 60000)',
      parse: integer(100, 60_000),
    },
  },
  (provider): BrandsSettings => ({ brandDataProvider: brandDataProvider(provider) }),
);

/** Both the URL and the key, or neither; the key travels safely. */
function brandDataProvider({
  url,
  key,
  timeoutMs,
}: {
  url?: string;
  key?: string;
  timeoutMs: number;
}): BrandDataProviderConfig | undefined {
  if (url === undefined && key === undefined) return undefined;
  if (url === undefined)
    throw new ConfigError('BRAND_DATA_PROVIDER_KEY needs BRAND_DATA_PROVIDER_URL, the API it is for');
  if (key === undefined)
    throw new ConfigError('BRAND_DATA_PROVIDER_URL needs BRAND_DATA_PROVIDER_KEY, the key it is called with');
  // Printable ASCII only: the key goes into a header, where a newline would start another.
  if (!/^[\x21-\x7e]{1,4096}$/.test(key))
    throw new ConfigError('BRAND_DATA_PROVIDER_KEY must be 1 to 4096 printable ASCII characters without spaces');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`BRAND_DATA_PROVIDER_URL must be a URL, got "${url}"`);
  }
  // The key travels with every request: never in clear text beyond this machine.
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) {
    throw new ConfigError(`BRAND_DATA_PROVIDER_URL must be https (http only on a loopback host), got "${url}"`);
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new ConfigError(
      'BRAND_DATA_PROVIDER_URL must have no credentials, query or fragment: the key is BRAND_DATA_PROVIDER_KEY',
    );
  }
  return { url: parsed.href.replace(/\/+$/, ''), key, timeoutMs };
}
