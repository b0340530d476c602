import type { Queryable } from '../../db/database.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { canonicalAgentUrl } from '../../protocol/agent-url.ts';
import { isRecord, items, strings } from '../../protocol/json-values.ts';
import { compare, type AuthorizationIndex } from '../lookups/index.ts';
import { validateLive, type FetchLimits } from './live-validation.ts';
import { renderFindings } from './render.ts';
import * as sql from './sql.ts';

/**
 * One report on a publisher: its adagents.json fetched now and judged as the validate tool judges
 * it, the operators whose brand.json declares its properties (the graph's operator declarations,
 * from the authorization index), and what the registry holds for it.
 */
export async function publisherReport(
  parts: { db: Queryable; fetcher: SafeFetch; index: AuthorizationIndex; limits: FetchLimits; now: Date },
  domain: string,
) {
  const { index, now } = parts;
  const [live, [crawl]] = await Promise.all([
    validateLive(parts.fetcher, domain, parts.limits, now),
    sql.crawlState(parts.db, domain),
  ]);
  const file = index.publisher(domain);
  const counts = index.publisherCounts(domain);
  const findings = renderFindings(live);
  return {
    domain,
    checked_at: now.toISOString(),
    valid: live.valid,
    url: live.url,
    discovery_method: live.chain.length > 1 ? ('authoritative_location' as const) : ('direct' as const),
    ...fileCounts(live.document),
    errors: findings.errors.map(asText),
    warnings: findings.warnings.map(asText),
    adagents: { ...findings, url: live.url, chain: live.chain },
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

/** What the live file declares, counted: distinct agent URLs, properties (and by type), distinct property tags used or described. */
function fileCounts(document: unknown) {
  const file = isRecord(document) ? document : {};
  const agents = items(file['authorized_agents']).flatMap((a) =>
    isRecord(a) && typeof a['url'] === 'string' ? [canonicalAgentUrl(a['url']) ?? a['url']] : [],
  );
  const properties = items(file['properties']).filter(isRecord);
  // A Map, so a hostile type name (__proto__) is a key like any other.
  const types = new Map<string, number>();
  for (const p of properties)
    if (typeof p['property_type'] === 'string') types.set(p['property_type'], (types.get(p['property_type']) ?? 0) + 1);
  const tags = new Set([
    ...properties.flatMap((p) => strings(p['tags'])),
    ...(isRecord(file['tags']) ? Object.keys(file['tags']) : []),
  ]);
  return {
    agent_count: new Set(agents).size,
    property_count: properties.length,
    property_type_counts: Object.fromEntries(types),
    tag_count: tags.size,
  };
}

/** A finding as one line of text, where the protocol's registry client reads strings. */
function asText(f: { path: string; message: string }): string {
  return f.path === '' ? f.message : `${f.path}: ${f.message}`;
}

function relationships(index: AuthorizationIndex, domain: string) {
  const byDeclaration = new Map<
    string,
    { operator_domain: string; brand_id: string; relationship: string; agents: string[]; property_ids: string[] }
  >();
  for (const property of index.propertiesOfPublisher(domain)) {
    for (const d of property.declarations) {
      const key = `${d.operator_domain}\u0000${d.brand_id}\u0000${d.relationship}`;
      let found = byDeclaration.get(key);
      if (!found)
        byDeclaration.set(
          key,
          (found = {
            operator_domain: d.operator_domain,
            brand_id: d.brand_id,
            relationship: d.relationship,
            agents: [...d.agents],
            property_ids: [],
          }),
        );
      found.property_ids.push(property.propertyId ?? property.rid);
    }
  }
  const out = [...byDeclaration.values()];
  for (const r of out) r.property_ids.sort(compare);
  return out.sort(
    (a, b) =>
      compare(a.operator_domain, b.operator_domain) ||
      compare(a.brand_id, b.brand_id) ||
      compare(a.relationship, b.relationship),
  );
}
