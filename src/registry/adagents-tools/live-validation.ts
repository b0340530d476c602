import type { SafeFetch } from '../../net/safe-fetch.ts';
import type { PathSegment } from '../../protocol/json-path.ts';
import { ADAGENTS_SCHEMA_ID, validateSchema } from '../../protocol/schemas.ts';
import { issue, type AdagentsValidation, type Issue } from '../documents/adagents-validation/findings.ts';
import { validateAdagents, validateAdagentsText } from '../documents/adagents-validation/validate.ts';
import { documentPointer, followPointers } from '../documents/follow.ts';
import { fetchJsonDocument } from '../documents/well-known.ts';

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  maxHops: number;
}

/** A domain's adagents.json as fetched now and judged: where it was read, and the findings. */
export interface LiveValidation extends AdagentsValidation {
  /** Where the walk stopped: the file judged, or the address that failed. */
  url: string;
  /** Every address read, in order (authoritative_location hops after the well-known one). */
  chain: string[];
  /** The file judged, when one was read. */
  document?: unknown;
  /** Some address of the walk answered with content (a file, valid or not, or a pointer); false when the first gave none (no answer, a status other than 200). */
  found: boolean;
}

type Failure = { issue: Issue; url: string } | { text: string; url: string };

/**
 * Fetches `domain`'s adagents.json through the SSRF-safe client, following authoritative_location
 * as the crawler does (the same walk, loop and hop guards), and validates the file that counts. A
 * reference whose own schema fails is not followed: it is the file reported on. What stops the
 * walk (no answer, a status, a loop, too many hops) is an error finding at the document's root or
 * at its authoritative_location.
 */
export async function validateLive(
  fetcher: SafeFetch,
  domain: string,
  limits: FetchLimits,
  now: Date,
): Promise<LiveValidation> {
  const walk = await followPointers<Failure>(
    domain,
    'adagents_json',
    limits.maxHops,
    async (url) => {
      const live = await fetchJsonDocument(fetcher, url, { timeoutMs: limits.timeoutMs, maxBytes: limits.maxBytes });
      if (!live.ok)
        return {
          ok: false,
          failure: {
            url: live.url,
            issue: issue(
              live.status === undefined ? 'fetch_failed' : live.status === 200 ? 'invalid_json' : 'http_status',
              [],
              live.problem,
            ),
          },
        };
      const { document } = live;
      // Not an object: the schema says so, at the root.
      if (!document || typeof document !== 'object' || Array.isArray(document))
        return { ok: false, failure: { url: live.url, text: live.text } };
      return { ok: true, url: live.url, document: document as Record<string, unknown> };
    },
    (document) => {
      const next = documentPointer(document, 'adagents_json');
      return next !== undefined && validateSchema(ADAGENTS_SCHEMA_ID, document).valid ? next : undefined;
    },
  );
  const options = { now };
  switch (walk.kind) {
    case 'arrived':
      return {
        url: walk.url,
        chain: walk.chain,
        document: walk.document,
        found: true,
        ...validateAdagents(walk.document, options),
      };
    case 'failed': {
      const { failure } = walk;
      const chain = [...walk.chain, failure.url];
      if ('text' in failure)
        return { url: failure.url, chain, found: true, ...validateAdagentsText(failure.text, options) };
      // Files read before the failure (a pointer to where nothing answers) were found; so was a 200 that is not JSON.
      const found = walk.chain.length > 0 || failure.issue.code === 'invalid_json';
      return { url: failure.url, chain, found, valid: false, errors: [failure.issue], warnings: [] };
    }
    default: {
      const at: PathSegment[] = ['authoritative_location'];
      const stop = issue(
        walk.kind === 'loop' ? 'authoritative_location_loop' : 'authoritative_location_too_long',
        at,
        walk.reason,
      );
      return { url: walk.url, chain: walk.chain, found: true, valid: false, errors: [stop], warnings: [] };
    }
  }
}
