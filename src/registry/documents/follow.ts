import type { DocumentKind } from './well-known.ts';
import { wellKnownUrl } from './well-known.ts';

/** What fetching one address of a chain came to: a JSON object, or the fetcher's own failure. */
export type HopResult<F> = { ok: true; url: string; document: Record<string, unknown> } | { ok: false; failure: F };

/**
 * Where following a domain's pointers ended. `chain` lists every address read, in order (where each
 * was served, after redirects); the last is where the walk stopped.
 */
export type FollowOutcome<F> =
  | { kind: 'arrived'; chain: string[]; url: string; document: Record<string, unknown> }
  | { kind: 'failed'; chain: string[]; failure: F }
  | { kind: 'loop' | 'too_long'; chain: string[]; url: string; next: string; reason: string };

/** Where a reference document sends the reader, if it is one: `authoritative_location`, or a brand.json's `house`. */
export function documentPointer(document: Record<string, unknown>, kind: DocumentKind): string | undefined {
  const location = document['authoritative_location'];
  // A file that lists agents (or brands) itself is the document, whatever else it says.
  if (typeof location === 'string' && !('authorized_agents' in document) && !('brands' in document)) return location;
  const house = document['house'];
  if (kind === 'brand_json' && typeof house === 'string') return wellKnownUrl(house, kind);
  return undefined;
}

/**
 * Reads `domain`'s well-known document and follows its pointers to the document that counts,
 * refusing loops and chains longer than `maxHops`. The crawler and the validation tools both walk
 * through here, so a file judged by one is found the same way by the other. `next` decides whether
 * a document points on (the validator stops at a reference it cannot trust, to report on it).
 */
export async function followPointers<F>(
  domain: string,
  kind: DocumentKind,
  maxHops: number,
  fetchOne: (url: string) => Promise<HopResult<F>>,
  next: (document: Record<string, unknown>) => string | undefined = (document) => documentPointer(document, kind),
): Promise<FollowOutcome<F>> {
  const start = wellKnownUrl(domain, kind);
  const visited = new Set<string>();
  const chain: string[] = [];
  let url = start;
  for (let hop = 0; ; hop++) {
    visited.add(url);
    const result = await fetchOne(url);
    if (!result.ok) return { kind: 'failed', chain, failure: result.failure };
    chain.push(result.url);
    visited.add(result.url);
    const pointer = next(result.document);
    if (pointer === undefined) return { kind: 'arrived', chain, url: result.url, document: result.document };
    if (visited.has(pointer))
      return { kind: 'loop', chain, url, next: pointer, reason: `${url} points back to ${pointer}, a loop` };
    if (hop + 1 > maxHops)
      return {
        kind: 'too_long',
        chain,
        url,
        next: pointer,
        reason: `${url} is more than ${maxHops} hops from ${start}`,
      };
    url = pointer;
  }
}
