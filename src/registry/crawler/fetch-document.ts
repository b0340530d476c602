import { FetchError } from '../../net/fetch-error.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { ADAGENTS_SCHEMA_ID, BRAND_SCHEMA_ID, validateSchema } from '../../protocol/schemas.ts';
import { wellKnownUrl, type DocumentKind } from '../documents/well-known.ts';
import type { HostPacer } from './host-pacer.ts';

/**
 * What fetching a domain's document came to. `absent` and `invalid` are the publisher's definite
 * answer (a re-crawl marks its properties stale); `transient` is not, so the last good data stays.
 */
export type DocumentOutcome =
  | { kind: 'found'; url: string; document: Record<string, unknown> }
  | { kind: 'absent'; url: string; reason: string }
  | { kind: 'invalid'; url: string; reason: string }
  | { kind: 'transient'; url: string; reason: string; retryAfterSeconds?: number };

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  /** authoritative_location (and brand.json house) hops followed before giving up. */
  maxHops: number;
}

const schemaOf: Record<DocumentKind, string> = { adagents_json: ADAGENTS_SCHEMA_ID, brand_json: BRAND_SCHEMA_ID };

/**
 * Fetches `domain`'s adagents.json or brand.json through the SSRF-safe client, validates it, and
 * follows `authoritative_location` (and a brand.json's `house` pointer) to the document that
 * counts, refusing loops and chains longer than `maxHops`.
 */
export async function fetchDocument(fetcher: SafeFetch, pacer: HostPacer, domain: string, kind: DocumentKind, limits: FetchLimits): Promise<DocumentOutcome> {
  const visited = new Set<string>();
  let url = wellKnownUrl(domain, kind);
  for (let hop = 0; ; hop++) {
    visited.add(url);
    const outcome = await fetchOne(fetcher, pacer, url, kind, limits);
    if (outcome.kind !== 'found') return outcome;
    const next = pointer(outcome.document, kind);
    if (next === undefined) return outcome;
    if (visited.has(next)) return { kind: 'invalid', url, reason: `${url} points back to ${next}, a loop` };
    if (hop + 1 > limits.maxHops) return { kind: 'invalid', url, reason: `${url} is more than ${limits.maxHops} hops from ${wellKnownUrl(domain, kind)}` };
    url = next;
  }
}

/** Where a reference document sends the reader, if it is one. */
function pointer(document: Record<string, unknown>, kind: DocumentKind): string | undefined {
  const location = document['authoritative_location'];
  if (typeof location === 'string' && !('authorized_agents' in document) && !('brands' in document)) return location;
  const house = document['house'];
  if (kind === 'brand_json' && typeof house === 'string') return wellKnownUrl(house, kind);
  return undefined;
}

async function fetchOne(fetcher: SafeFetch, pacer: HostPacer, url: string, kind: DocumentKind, limits: FetchLimits): Promise<DocumentOutcome> {
  let res;
  try {
    res = await pacer.run(new URL(url).hostname, () =>
      fetcher.fetch(url, { headers: { accept: 'application/json' }, timeoutMs: limits.timeoutMs, maxBytes: limits.maxBytes }),
    );
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    // A file larger than the cap, or a name that now points inside, is the domain's answer, not bad luck.
    if (err.reason === 'too_large' || err.reason === 'forbidden_address' || err.reason === 'invalid_url' || err.reason === 'unsupported_scheme') {
      return { kind: 'invalid', url, reason: err.message };
    }
    return { kind: 'transient', url, reason: err.message };
  }
  const at = res.url;
  if (res.status === 404 || res.status === 410) return { kind: 'absent', url: at, reason: `${at} answered HTTP ${res.status}` };
  if (res.status === 429 || res.status >= 500 || res.status === 408) {
    return { kind: 'transient', url: at, reason: `${at} answered HTTP ${res.status}`, ...retryAfter(res.headers['retry-after']) };
  }
  if (res.status !== 200) return { kind: 'invalid', url: at, reason: `${at} answered HTTP ${res.status}` };
  let document: unknown;
  try {
    document = res.json();
  } catch {
    return { kind: 'invalid', url: at, reason: `${at} is not valid JSON` };
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) return { kind: 'invalid', url: at, reason: `${at} is not a JSON object` };
  const validation = validateSchema(schemaOf[kind], document);
  if (!validation.valid) {
    const first = validation.errors[0]!;
    return { kind: 'invalid', url: at, reason: `${at} does not match the schema: ${first.path} ${first.message}` };
  }
  return { kind: 'found', url: at, document: document as Record<string, unknown> };
}

function retryAfter(header: string | undefined): { retryAfterSeconds?: number } {
  if (!header) return {};
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : Math.ceil((Date.parse(header) - Date.now()) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? { retryAfterSeconds: seconds } : {};
}
