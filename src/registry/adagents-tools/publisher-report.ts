import type { Queryable } from '../../db/database.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { compare, type AuthorizationIndex } from '../lookups/index.ts';
import { validateLive, type FetchLimits } from './live-validation.ts';
import { renderFindings } from './render.ts';
import * as sql from './sql.ts';

/**
 * One report on a publisher: its adagents.json fetched now and judged as the validate tool judges
 * it, the operators whose brand.json declares its properties (the graph's operator declarations,
 * from the authorization index), and what the registry holds for it.
 */
export async function publisherReport(parts: { db: Queryable; fetcher: SafeFetch; index: AuthorizationIndex; limits: FetchLimits; now: Date }, domain: string) {
  const { index, now } = parts;
  const [live, [crawl]] = await Promise.all([validateLive(parts.fetcher, domain, parts.limits, now), sql.crawlState(parts.db, domain)]);
  const file = index.publisher(domain);
  const counts = index.publisherCounts(domain);
  return {
    domain,
    checked_at: now.toISOString(),
    adagents: { ...renderFindings(live), url: live.url, chain: live.chain },
    brand_relationships: relationships(index, domain),
    registry: {
      known: file !== undefined,
      status: file ? (file.stale ? ('stale' as const) : ('active' as const)) : null,
      stale_reason: file?.reason ?? null,
      document_url: file?.documentUrl ?? null,
      property_count: counts.properties,
      stale_property_count: counts.staleProperties,
      agent_count: counts.agents,
      authorization_count: counts.authorizations,
      last_crawled_at: crawl?.last_crawled_at?.toISOString() ?? null,
      last_outcome: crawl?.last_outcome ?? null,
    },
  };
}

function relationships(index: AuthorizationIndex, domain: string) {
  const byDeclaration = new Map<string, { operator_domain: string; brand_id: string; relationship: string; agents: string[]; property_ids: string[] }>();
  for (const property of index.propertiesOfPublisher(domain)) {
    for (const d of property.declarations) {
      const key = `${d.operator_domain}\u0000${d.brand_id}\u0000${d.relationship}`;
      let found = byDeclaration.get(key);
      if (!found) byDeclaration.set(key, (found = { operator_domain: d.operator_domain, brand_id: d.brand_id, relationship: d.relationship, agents: [...d.agents], property_ids: [] }));
      found.property_ids.push(property.propertyId ?? property.rid);
    }
  }
  const out = [...byDeclaration.values()];
  for (const r of out) r.property_ids.sort(compare);
  return out.sort((a, b) => compare(a.operator_domain, b.operator_domain) || compare(a.brand_id, b.brand_id) || compare(a.relationship, b.relationship));
}
