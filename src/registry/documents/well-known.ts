import type { Queryable } from '../../db/database.ts';
import { FetchError, type FetchErrorReason } from '../../net/fetch-error.ts';
import type { SafeFetch, SafeFetchInit } from '../../net/safe-fetch.ts';
import { ApError } from '../../protocol/errors.ts';
import { parseBoundedJson } from '../../protocol/json-depth.ts';

export type DocumentKind = 'brand_json' | 'adagents_json';

const PATHS: Record<DocumentKind, string> = {
  brand_json: '/.well-known/brand.json',
  adagents_json: '/.well-known/adagents.json',
};

/** Where a domain publishes its document. Always https: the allow-list maps names for development. */
export function wellKnownUrl(domain: string, kind: DocumentKind): string {
  return `https://${domain}${PATHS[kind]}`;
}

export interface FetchedDocument {
  domain: string;
  url: string;
  fetched_at: Date;
  document: Record<string, unknown>;
}

/**
 * Outcome of fetching a document live: the parsed JSON, or why there is none. A failure carries
 * the HTTP status when there was a response (200 for a body that is not JSON), or the fetch
 * client's reason when there was none, and the response's Retry-After when it gave one.
 */
export type LiveDocument =
  | { ok: true; url: string; text: string; document: unknown; headers: Record<string, string> }
  | { ok: false; url: string; status?: number; reason?: FetchErrorReason; retryAfter?: string; problem: string };

/** Fetches the domain's document through the SSRF-safe client; never throws for the domain's own failures. */
export async function fetchWellKnown(fetcher: SafeFetch, domain: string, kind: DocumentKind): Promise<LiveDocument> {
  return fetchJsonDocument(fetcher, wellKnownUrl(domain, kind));
}

/**
 * Fetches a JSON document at `url` (wherever a domain's pointer led) through the SSRF-safe client.
 * `headers` adds to the request (a crawler's conditional `if-none-match`, say).
 */
export async function fetchJsonDocument(
  fetcher: SafeFetch,
  url: string,
  init: Pick<SafeFetchInit, 'timeoutMs' | 'maxBytes' | 'headers'> = {},
): Promise<LiveDocument> {
  try {
    const res = await fetcher.fetch(url, { ...init, headers: { ...init.headers, accept: 'application/json' } });
    // After redirects the document's address is where it was finally served from.
    const at = res.url;
    if (res.status !== 200) {
      const retryAfter = res.headers['retry-after'];
      return {
        ok: false,
        url: at,
        status: res.status,
        ...(retryAfter ? { retryAfter } : {}),
        problem: `${at} answered HTTP ${res.status}`,
      };
    }
    const text = res.text();
    try {
      // A publisher's file is walked recursively later (validation, diffing): a hostile depth is refused as invalid.
      return { ok: true, url: at, text, document: parseBoundedJson(text), headers: res.headers };
    } catch (err) {
      return { ok: false, url: at, status: res.status, problem: `${at} is not valid JSON (${(err as Error).message})` };
    }
  } catch (err) {
    if (err instanceof FetchError) return { ok: false, url, reason: err.reason, problem: err.message };
    throw err;
  }
}

export async function storedDocument(
  db: Queryable,
  domain: string,
  kind: DocumentKind,
): Promise<FetchedDocument | undefined> {
  const [row] = await db.query<FetchedDocument>(
    `select domain, url, fetched_at, document from fetched_documents where domain = $1 and kind = $2`,
    [domain, kind],
  );
  return row;
}

export async function storeDocument(
  db: Queryable,
  domain: string,
  kind: DocumentKind,
  url: string,
  document: Record<string, unknown>,
): Promise<FetchedDocument> {
  const [row] = await db.query<FetchedDocument>(
    `insert into fetched_documents (domain, kind, url, document) values ($1, $2, $3, $4)
     on conflict (domain, kind) do update set url = excluded.url, document = excluded.document, fetched_at = now()
     returning domain, url, fetched_at, document`,
    [domain, kind, url, JSON.stringify(document)],
  );
  return row!;
}

/** The stored document, or a live fetch stored for next time; 404 or 502 with the reason when none can be had. */
export async function storedOrFetched(
  db: Queryable,
  fetcher: SafeFetch,
  domain: string,
  kind: DocumentKind,
): Promise<FetchedDocument> {
  const stored = await storedDocument(db, domain, kind);
  if (stored) return stored;
  const live = await fetchWellKnown(fetcher, domain, kind);
  if (!live.ok) {
    if (live.status === 404 || live.status === 410)
      throw new ApError('not_found', `${domain} publishes no ${PATHS[kind]} (${live.problem}).`);
    throw new ApError('upstream_unavailable', `Could not fetch ${PATHS[kind]} for ${domain}: ${live.problem}.`);
  }
  if (!live.document || typeof live.document !== 'object' || Array.isArray(live.document)) {
    throw new ApError('upstream_unavailable', `${live.url} is not a JSON object.`);
  }
  return storeDocument(db, domain, kind, live.url, live.document as Record<string, unknown>);
}
