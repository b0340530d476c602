import type { BrandDataProviderConfig } from '../../../config.ts';
import { FetchError } from '../../../net/fetch-error.ts';
import type { SafeFetch, SafeResponse } from '../../../net/safe-fetch.ts';
import { ApError } from '../../../protocol/errors.ts';
import { isRecord, records, strings } from '../../../protocol/json-values.ts';
import type { BrandManifest } from '../rows.ts';
import type { EnrichmentProvider, EnrichmentResult } from './provider.ts';

const NAME = 'brand-data-api';

/** A brand's record is a few kilobytes; anything near this is not one. */
const MAX_BYTES = 256 * 1024;

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/**
 * A third-party brand-data API, modelled on the commercial ones:
 *
 *     GET {url}/brands/{domain}      Authorization: Bearer {key}
 *     200 {"domain": "acme.com", "name": "Acme", "description": "...",
 *          "logos": [{"url": "https://...", "type": "logo", "theme": "dark", "tags": ["primary"]}],
 *          "colors": [{"hex": "#ff6600", "type": "accent"}]}
 *     404 when it knows nothing of the domain
 *
 * Called through the app's SSRF-safe client like any other fetch: the URL is the operator's, but
 * its name still resolves at call time, so it must be public unless `AP_FETCH_ALLOW` names it.
 * Redirects are refused (an API answers where it is asked, and the key must not follow a hop).
 * Any other answer (an error status, not JSON, no name, too large, too slow) throws
 * `brand_data_provider_failed`: nothing is stored, and the caller may retry.
 */
export function brandDataApiProvider(fetcher: SafeFetch, settings: BrandDataProviderConfig): EnrichmentProvider {
  return {
    name: NAME,
    async enrich(domain) {
      const url = `${settings.url}/brands/${encodeURIComponent(domain)}`;
      let res: SafeResponse;
      try {
        res = await fetcher.fetch(url, {
          headers: { accept: 'application/json', authorization: `Bearer ${settings.key}` },
          timeoutMs: settings.timeoutMs,
          maxBytes: MAX_BYTES,
          redirect: 'error',
        });
      } catch (err) {
        if (err instanceof FetchError) throw failed(domain, describe(err), err);
        throw err;
      }
      if (res.status === 404) return null;
      if (res.status !== 200) throw failed(domain, `it answered HTTP ${res.status}`);
      let body: unknown;
      try {
        body = res.json();
      } catch (err) {
        throw failed(domain, 'its answer is not JSON', err);
      }
      const brand = readBrand(body);
      if (!brand) throw failed(domain, 'its answer names no brand');
      return brand;
    },
  };
}

// The client sees why, never where: the provider's URL is the operator's business (the log has it).
function failed(domain: string, why: string, cause?: unknown): ApError {
  return new ApError(
    'brand_data_provider_failed',
    `The brand-data provider could not be used for ${domain}: ${why}. Nothing was stored; try again later.`,
    { cause },
  );
}

function describe(err: FetchError): string {
  switch (err.reason) {
    case 'timeout':
      return 'it did not answer in time';
    case 'too_large':
      return 'its answer is too large';
    case 'redirect_refused':
      return 'it redirected';
    case 'forbidden_address':
      return 'its address is not public';
    default:
      return 'it could not be reached';
  }
}

/** The provider's record as the registry's brand manifest, keeping only what fits the save's limits. */
export function readBrand(body: unknown): EnrichmentResult | null {
  if (!isRecord(body)) return null;
  const name = text(body.name, 300);
  if (!name) return null;
  const manifest: BrandManifest = { name };
  const description = text(body.description, 5000);
  if (description) manifest.description = description;
  const logos = records(body.logos)
    .map((logo) => ({ url: httpUrl(logo.url), tags: logoTags(logo) }))
    .filter((logo): logo is { url: string; tags: string[] } => logo.url !== undefined)
    .slice(0, 50);
  if (logos.length > 0) manifest.logos = logos;
  const colors = records(body.colors)
    .filter((color) => typeof color.hex === 'string' && HEX.test(color.hex))
    .map((color) => {
      const type = text(color.type, 50);
      return { hex: (color.hex as string).toLowerCase(), ...(type ? { type } : {}) };
    })
    .slice(0, 50);
  if (colors.length > 0) manifest.colors = colors;
  return { brand_name: name, manifest, provider: NAME };
}

/** The logo's kind and theme (`logo`, `icon`, `dark`...) are tags in the registry's manifest. */
function logoTags(logo: Record<string, unknown>): string[] {
  const tags = [logo.type, logo.theme, ...strings(logo.tags)]
    .map((tag) => text(tag, 100))
    .filter((tag): tag is string => tag !== undefined);
  return [...new Set(tags)].slice(0, 20);
}

function text(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const clean = value.replace(/\s+/g, ' ').trim();
  return clean ? clean.slice(0, max) : undefined;
}

function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.href.length <= 2048 ? url.href : undefined;
  } catch {
    return undefined;
  }
}
