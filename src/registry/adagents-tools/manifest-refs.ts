import type { Queryable } from '../../db/database.ts';
import { wellKnownUrl, type DocumentKind } from '../documents/well-known.ts';
import * as sql from './sql.ts';

/**
 * Where a domain's manifests live, from what the registry keeps (no fetch): for each document the
 * crawler's last fetch (outcome, the pointers it followed) and the good copy stored, plus the
 * publisher record, the house its brand record names and the crawl schedule. Undefined when the
 * registry knows nothing of the domain.
 */
export async function manifestRefs(db: Queryable, domain: string) {
  const state = await sql.manifestState(db, domain);
  const known = state.fetches.length > 0 || state.stored.length > 0 || state.publisher || state.crawl || state.houseDomain;
  if (!known) return undefined;
  const ref = (kind: DocumentKind) => {
    const fetch = state.fetches.find((f) => f.kind === kind);
    const stored = state.stored.find((s) => s.kind === kind);
    const url = fetch?.url ?? stored?.url ?? (kind === 'adagents_json' ? state.publisher?.document_url : undefined) ?? null;
    return {
      well_known_url: wellKnownUrl(domain, kind),
      status: fetch?.outcome ?? ('not_fetched' as const),
      reason: fetch?.reason ?? null,
      url,
      // The well-known address is the chain's first; what follows it is where pointers led.
      hops: fetch ? fetch.chain.slice(1) : url && url !== wellKnownUrl(domain, kind) ? [url] : [],
      fetched_at: fetch?.fetched_at ?? null,
      stored_at: stored?.fetched_at ?? null,
    };
  };
  return {
    domain,
    adagents_json: ref('adagents_json'),
    brand_json: { ...ref('brand_json'), house_domain: state.houseDomain },
    publisher: state.publisher ? { status: state.publisher.status, stale_reason: state.publisher.stale_reason, manager_domain: state.publisher.manager_domain } : null,
    last_crawled_at: state.crawl?.last_crawled_at ?? null,
    next_crawl_at: state.crawl?.next_crawl_at ?? null,
  };
}
