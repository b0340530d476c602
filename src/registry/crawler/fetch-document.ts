import type { FetchErrorReason } from '../../net/fetch-error.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { ADAGENTS_SCHEMA_ID, BRAND_SCHEMA_ID, validateSchema } from '../../protocol/schemas.ts';
import { followPointers } from '../documents/follow.ts';
import { fetchJsonDocument, type DocumentKind, type LiveDocument } from '../documents/well-known.ts';
import type { HostPacer } from './host-pacer.ts';

/**
 * What fetching a domain's document came to. `absent` and `invalid` are the publisher's definite
 * answer (a re-crawl marks its properties stale); `transient` is not, so the last good data stays.
 */
export type DocumentOutcome = (
  | { kind: 'found'; url: string; document: Record<string, unknown> }
  | { kind: 'absent'; url: string; reason: string }
  | { kind: 'invalid'; url: string; reason: string }
  | { kind: 'transient'; url: string; reason: string; retryAfterSeconds?: number }
) & {
  /** Every address read, in order, the last being where the fetch stopped (pointers followed). */
  chain: string[];
};

/** One address's outcome, before the chain is known. */
type HopOutcome = DistributiveOmit<DocumentOutcome, 'chain'>;
type Failure = Exclude<HopOutcome, { kind: 'found' }>;
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

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
export async function fetchDocument(
  fetcher: SafeFetch,
  pacer: HostPacer,
  domain: string,
  kind: DocumentKind,
  limits: FetchLimits,
): Promise<DocumentOutcome> {
  const walk = await followPointers<Failure>(domain, kind, limits.maxHops, async (url) => {
    const outcome = await fetchOne(fetcher, pacer, url, kind, limits);
    return outcome.kind === 'found'
      ? { ok: true, url: outcome.url, document: outcome.document }
      : { ok: false, failure: outcome };
  });
  const { chain } = walk;
  switch (walk.kind) {
    case 'arrived':
      return { kind: 'found', url: walk.url, document: walk.document, chain };
    case 'failed':
      return { ...walk.failure, chain: [...chain, walk.failure.url] };
    default:
      return { kind: 'invalid', url: walk.url, reason: walk.reason, chain };
  }
}

async function fetchOne(
  fetcher: SafeFetch,
  pacer: HostPacer,
  url: string,
  kind: DocumentKind,
  limits: FetchLimits,
): Promise<HopOutcome> {
  const live = await pacer.run(new URL(url).hostname, () =>
    fetchJsonDocument(fetcher, url, { timeoutMs: limits.timeoutMs, maxBytes: limits.maxBytes }),
  );
  if (!live.ok) return classify(live);
  const { document } = live;
  if (!document || typeof document !== 'object' || Array.isArray(document))
    return { kind: 'invalid', url: live.url, reason: `${live.url} is not a JSON object` };
  const validation = validateSchema(schemaOf[kind], document);
  if (!validation.valid) {
    const first = validation.errors[0]!;
    return {
      kind: 'invalid',
      url: live.url,
      reason: `${live.url} does not match the schema: ${first.path} ${first.message}`,
    };
  }
  return { kind: 'found', url: live.url, document: document as Record<string, unknown> };
}

// A file larger than the cap, or a name that now points inside, is the domain's answer, not bad luck.
const definiteReasons = new Set<FetchErrorReason>([
  'too_large',
  'forbidden_address',
  'invalid_url',
  'unsupported_scheme',
]);

function classify(live: Extract<LiveDocument, { ok: false }>): Failure {
  const { url, problem: reason, status } = live;
  if (status === undefined)
    return { kind: live.reason && definiteReasons.has(live.reason) ? 'invalid' : 'transient', url, reason };
  if (status === 404 || status === 410) return { kind: 'absent', url, reason };
  if (status === 429 || status >= 500 || status === 408)
    return { kind: 'transient', url, reason, ...retryAfter(live.retryAfter) };
  // Any other status, and a 200 that is not JSON.
  return { kind: 'invalid', url, reason };
}

function retryAfter(header: string | undefined): { retryAfterSeconds?: number } {
  if (!header) return {};
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : Math.ceil((Date.parse(header) - Date.now()) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? { retryAfterSeconds: seconds } : {};
}
