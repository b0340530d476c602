import type { Queryable } from '../../db/database.ts';
import { wellKnownUrl, type DocumentKind } from '../documents/well-known.ts';
import * as sql from './sql.ts';

type FetchOutcome = sql.FetchRow['outcome'];

/**
 * Where a domain's manifests live, from what the registry keeps (no fetch): for each document the
 * crawler's last fetch (outcome, the pointers it followed) and the good copy stored, plus the
 * publisher record, the house its brand record names and the crawl schedule; and the one manifest
 * the protocol's registry client asks for (`asked`, else the first found) as its `reference`.
 * A domain the registry knows nothing of has every manifest `not_fetched` and is not `found`: the
 * client reads that answer (a 404 would be an error to it, not "none").
 */
export async function manifestRefs(db: Queryable, domain: string, asked?: DocumentKind) {
  const state = await sql.manifestState(db, domain);
  const ref = (kind: DocumentKind) => {
    const fetch = state.fetches.find((f) => f.kind === kind);
    const stored = state.stored.find((s) => s.kind === kind);
    const url =
      fetch?.url ?? stored?.url ?? (kind === 'adagents_json' ? state.publisher?.document_url : undefined) ?? null;
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
  const refs = {
    adagents_json: ref('adagents_json'),
    brand_json: { ...ref('brand_json'), house_domain: state.houseDomain },
  };
  // The protocol's registry client asks for one manifest: the kind given, else the first one found.
  const kind = asked ?? (['adagents_json', 'brand_json'] as const).find((k) => isFound(refs[k])) ?? 'adagents_json';
  const chosen = refs[kind];
  const found = isFound(chosen);
  return {
    success: found,
    found,
    ...(found
      ? {
          reference: {
            manifest_type: kind,
            reference_type: 'url' as const,
            manifest_url: chosen.url,
            agent_url: null,
            agent_id: null,
            verification_status: verificationOf(chosen),
          },
        }
      : {}),
    domain,
    ...refs,
    publisher: state.publisher
      ? {
          status: state.publisher.status,
          stale_reason: state.publisher.stale_reason,
          manager_domain: state.publisher.manager_domain,
        }
      : null,
    last_crawled_at: state.crawl?.last_crawled_at ?? null,
    next_crawl_at: state.crawl?.next_crawl_at ?? null,
  };
}

type Ref = { status: FetchOutcome | 'not_fetched'; stored_at: Date | null };

/** A manifest the registry has found: read at the last fetch (valid or not), or a good copy held. */
function isFound(ref: Ref): boolean {
  return ref.status === 'found' || ref.status === 'invalid' || ref.stored_at !== null;
}

function verificationOf(ref: Ref): 'pending' | 'valid' | 'invalid' | 'unreachable' {
  switch (ref.status) {
    case 'found':
      return 'valid';
    case 'invalid':
      return 'invalid';
    case 'not_fetched':
      return 'pending';
    default:
      return 'unreachable';
  }
}
