import type { FetchErrorReason } from '../../net/fetch-error.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { ADAGENTS_SCHEMA_ID, BRAND_SCHEMA_ID, validateSchema } from '../../protocol/schemas.ts';
import { followPointers } from '../documents/follow.ts';
import { fetchJsonDocument, type DocumentKind, type LiveDocument } from '../documents/well-known.ts';
import type { HostPacer } from './host-pacer.ts';

/**
 * What the server said identifies the version of a document, as the crawler keeps it to ask again
 * conditionally: sent only to `url`, the address that answered them (after the pointers, before any
 * redirect), with the hash of the document the graph was brought in line with.
 */
export interface Validators {
  url: string;
  etag?: string;
  last_modified?: string;
  hash?: string;
}

/**
 * What fetching a domain's document came to. `absent` and `invalid` are the publisher's definite
 * answer (a re-crawl marks its properties stale); `transient` is not, so the last good data stays.
 * `unchanged` is a 304 to a conditional request: the document is the one the validators were kept for.
 */
export type DocumentOutcome = (
  | { kind: 'found'; url: string; document: Record<string, unknown>; validators?: Validators }
  | { kind: 'unchanged'; url: string }
  | { kind: 'absent'; url: string; reason: string }
  | { kind: 'invalid'; url: string; reason: string }
  | { kind: 'transient'; url: string; reason: string; retryAfterSeconds?: number }
) & {
  /** Every address read, in order, the last being where the fetch stopped (pointers followed). */
  chain: string[];
};

/** One address's outcome, before the chain is known. */
type HopOutcome = DistributiveOmit<DocumentOutcome, 'chain'>;
// Not modified ends the walk like a failure does: there is no document to follow pointers in.
type Failure = Exclude<HopOutcome, { kind: 'found' }>;
type Found = Extract<HopOutcome, { kind: 'found' }>;
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
 * counts, refusing loops and chains longer than `maxHops`. With the `known` validators of the last
 * document found, the address that answered them is asked conditionally.
 */
export async function fetchDocument(
  fetcher: SafeFetch,
  pacer: HostPacer,
  domain: string,
  kind: DocumentKind,
  limits: FetchLimits,
  known?: Validators,
): Promise<DocumentOutcome> {
  // The walk arrives at the last document it read: that one's validators are kept.
  let last: Found | undefined;
  const walk = await followPointers<Failure>(domain, kind, limits.maxHops, async (url) => {
    const outcome = await fetchOne(fetcher, pacer, url, kind, limits, known?.url === url ? known : undefined);
    if (outcome.kind !== 'found') return { ok: false, failure: outcome };
    last = outcome;
    return { ok: true, url: outcome.url, document: outcome.document };
  });
  const { chain } = walk;
  switch (walk.kind) {
    case 'arrived': {
      const validators = last?.validators;
      return { kind: 'found', url: walk.url, document: walk.document, chain, ...(validators ? { validators } : {}) };
    }
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
  known: Validators | undefined,
): Promise<HopOutcome> {
  const conditional = known ? conditionalHeaders(known) : {};
  const live = await pacer.run(new URL(url).hostname, () =>
    fetchJsonDocument(fetcher, url, { timeoutMs: limits.timeoutMs, maxBytes: limits.maxBytes, headers: conditional }),
  );
  // A 304 means something only to a request that asked conditionally.
  if (!live.ok && live.status === 304 && Object.keys(conditional).length > 0)
    return { kind: 'unchanged', url: live.url };
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
  const validators = validatorsOf(url, live.headers);
  return {
    kind: 'found',
    url: live.url,
    document: document as Record<string, unknown>,
    ...(validators ? { validators } : {}),
  };
}

// Longer is no real server's validator; a hostile one is not echoed back on every crawl.
const maxValidatorLength = 256;

function validatorsOf(url: string, headers: Record<string, string>): Validators | undefined {
  const bounded = (value: string | undefined) => (value && value.length <= maxValidatorLength ? value : undefined);
  const etag = bounded(headers['etag']);
  const lastModified = bounded(headers['last-modified']);
  if (!etag && !lastModified) return undefined;
  return { url, ...(etag ? { etag } : {}), ...(lastModified ? { last_modified: lastModified } : {}) };
}

function conditionalHeaders(known: Validators): Record<string, string> {
  return {
    ...(known.etag ? { 'if-none-match': known.etag } : {}),
    ...(known.last_modified ? { 'if-modified-since': known.last_modified } : {}),
  };
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
