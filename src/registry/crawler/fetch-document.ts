import type { FetchErrorReason } from '../../net/fetch-error.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { ADAGENTS_SCHEMA_ID, BRAND_SCHEMA_ID, validateSchema } from '../../protocol/schemas.ts';
import { fetchJsonDocument, wellKnownUrl, type DocumentKind, type LiveDocument } from '../documents/well-known.ts';
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
  const live = await pacer.run(new URL(url).hostname, () => fetchJsonDocument(fetcher, url, { timeoutMs: limits.timeoutMs, maxBytes: limits.maxBytes }));
  if (!live.ok) return classify(live);
  const { document } = live;
  if (!document || typeof document !== 'object' || Array.isArray(document)) return { kind: 'invalid', url: live.url, reason: `${live.url} is not a JSON object` };
  const validation = validateSchema(schemaOf[kind], document);
  if (!validation.valid) {
    const first = validation.errors[0]!;
    return { kind: 'invalid', url: live.url, reason: `${live.url} does not match the schema: ${first.path} ${first.message}` };
  }
  return { kind: 'found', url: live.url, document: document as Record<string, unknown> };
}

// A file larger than the cap, or a name that now points inside, is the domain's answer, not bad luck.
const definiteReasons = new Set<FetchErrorReason>(['too_large', 'forbidden_address', 'invalid_url', 'unsupported_scheme']);

function classify(live: Extract<LiveDocument, { ok: false }>): DocumentOutcome {
  const { url, problem: reason, status } = live;
  if (status === undefined) return { kind: live.reason && definiteReasons.has(live.reason) ? 'invalid' : 'transient', url, reason };
  if (status === 404 || status === 410) return { kind: 'absent', url, reason };
  if (status === 429 || status >= 500 || status === 408) return { kind: 'transient', url, reason, ...retryAfter(live.retryAfter) };
  // Any other status, and a 200 that is not JSON.
  return { kind: 'invalid', url, reason };
}

function retryAfter(header: string | undefined): { retryAfterSeconds?: number } {
  if (!header) return {};
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : Math.ceil((Date.parse(header) - Date.now()) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? { retryAfterSeconds: seconds } : {};
}
