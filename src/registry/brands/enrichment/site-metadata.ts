import { Parser } from 'htmlparser2';
import { FetchError } from '../../../net/fetch-error.ts';
import type { SafeFetch } from '../../../net/safe-fetch.ts';
import { ApError } from '../../../protocol/errors.ts';
import { fetchWellKnown } from '../../documents/well-known.ts';
import type { BrandManifest } from '../rows.ts';
import type { EnrichmentProvider, EnrichmentResult } from './provider.ts';

const HTML_MAX_BYTES = 512 * 1024;

const NAME = 'site-metadata';

/**
 * Reads what a domain says about itself: its brand.json when it has one, else its home page's
 * `<title>`, `og:site_name`, description, icons and `theme-color`. Every fetch goes through the
 * SSRF-safe client; a domain that resolves to a private or reserved address is 400
 * `domain_not_public`, as the crawl request answers it, rather than "nothing known".
 */
export function siteMetadataProvider(fetcher: SafeFetch): EnrichmentProvider {
  return {
    name: NAME,
    async enrich(domain) {
      const brandJson = await fetchWellKnown(fetcher, domain, 'brand_json');
      if (brandJson.ok) {
        const fromBrandJson = brandFromBrandJson(brandJson.document, domain);
        if (fromBrandJson) return fromBrandJson;
      }
      return fromHomePage(fetcher, domain);
    },
  };
}

async function fromHomePage(fetcher: SafeFetch, domain: string): Promise<EnrichmentResult | null> {
  const url = `https://${domain}/`;
  let html: string;
  let pageUrl: string;
  try {
    const res = await fetcher.fetch(url, { headers: { accept: 'text/html' }, maxBytes: HTML_MAX_BYTES });
    if (res.status !== 200) return null;
    html = res.text();
    // After redirects: relative icon URLs are relative to where the page was served from.
    pageUrl = res.url;
  } catch (err) {
    // Only the domain's own address: a redirect elsewhere that is refused says nothing of the domain.
    if (err instanceof FetchError && err.reason === 'forbidden_address' && err.host === domain) {
      throw new ApError(
        'domain_not_public',
        `${domain} resolves to a private or reserved address, which is never fetched.`,
      );
    }
    if (err instanceof FetchError) return null;
    throw err;
  }
  const meta = readHtmlMetadata(html, pageUrl);
  const name = meta.siteName ?? meta.title;
  if (!name) return null;
  const manifest: BrandManifest = { name };
  if (meta.description) manifest.description = meta.description;
  if (meta.icons.length > 0) manifest.logos = meta.icons.map((icon) => ({ url: icon, tags: ['icon'] }));
  if (meta.themeColor) manifest.colors = [{ hex: meta.themeColor, type: 'theme' }];
  return { brand_name: name, manifest, provider: NAME };
}

interface HtmlMetadata {
  title?: string;
  siteName?: string;
  description?: string;
  themeColor?: string;
  icons: string[];
}

/** Pulls brand hints out of an HTML document; icon URLs are made absolute against the page. */
export function readHtmlMetadata(html: string, pageUrl: string): HtmlMetadata {
  const found: HtmlMetadata = { icons: [] };
  let inTitle = false;
  let title = '';
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'title') inTitle = true;
        if (name === 'meta') {
          const key = (attrs.property ?? attrs.name ?? '').toLowerCase();
          const content = clean(attrs.content);
          if (!content) return;
          if (key === 'og:site_name') found.siteName ??= content;
          else if (key === 'description' || key === 'og:description') found.description ??= content;
          else if (key === 'theme-color' && /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(content))
            found.themeColor ??= content.toLowerCase();
        }
        if (name === 'link' && attrs.href && /(^|\s)(icon|apple-touch-icon)(\s|$)/i.test(attrs.rel ?? '')) {
          const href = absolute(attrs.href, pageUrl);
          if (href && found.icons.length < 10 && !found.icons.includes(href)) found.icons.push(href);
        }
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  const cleanTitle = clean(title);
  if (cleanTitle) found.title = cleanTitle;
  return found;
}

/** The brand a domain's brand.json describes: the house portfolio's brand for this domain, else its first. */
function brandFromBrandJson(doc: unknown, domain: string): EnrichmentResult | null {
  if (!doc || typeof doc !== 'object') return null;
  const file = doc as { house?: unknown; brands?: unknown };
  if (!Array.isArray(file.brands) || file.brands.length === 0) return null;
  const brands = file.brands as Array<Record<string, unknown>>;
  const own = brands.find(
    (b) =>
      Array.isArray(b.properties) &&
      (b.properties as Array<{ identifier?: string }>).some((p) => p.identifier === domain),
  );
  const brand = own ?? brands[0]!;
  const names = Array.isArray(brand.names) ? (brand.names as Array<Record<string, string>>) : [];
  const name = names.map((n) => Object.values(n)[0]).find((v) => typeof v === 'string' && v.trim() !== '');
  if (!name) return null;
  const manifest: BrandManifest = { name };
  if (typeof brand.description === 'string') manifest.description = brand.description;
  if (Array.isArray(brand.logos)) {
    manifest.logos = (brand.logos as Array<{ url?: unknown; tags?: unknown }>)
      .filter((l) => typeof l.url === 'string')
      .slice(0, 20)
      .map((l) => ({
        url: l.url as string,
        tags: Array.isArray(l.tags) ? (l.tags as unknown[]).filter((t): t is string => typeof t === 'string') : [],
      }));
  }
  return { brand_name: name, manifest, provider: NAME };
}

function clean(text: string | undefined): string | undefined {
  const value = text?.replace(/\s+/g, ' ').trim();
  return value ? value.slice(0, 300) : undefined;
}

function absolute(href: string, base: string): string | undefined {
  try {
    const url = new URL(href, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
