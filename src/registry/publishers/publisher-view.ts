import {
  compare,
  covers,
  grantSummary,
  propertySummary,
  type AuthorizationIndex,
  type IndexedGrant,
  type IndexedProperty,
  type IndexedPublisher,
} from '../lookups/index.ts';

/** A publisher as the index holds it, in its wire form (schemas.ts `Publisher`); undefined when the index has no adagents.json for it. */
export function publisherView(index: AuthorizationIndex, domain: string) {
  const file = index.publisher(domain);
  if (!file) return undefined;
  const counts = publisherCounts(index, domain);
  return {
    domain,
    adagents: {
      status: file.stale ? ('stale' as const) : ('active' as const),
      stale_reason: file.reason,
      document_url: file.documentUrl,
      manager_domain: file.managerDomain,
      discovered_at: file.discoveredAt,
    },
    counts,
    // What the protocol's registry client reads of a publisher, beside ours.
    member: null,
    adagents_valid: !file.stale,
    manager_domain: file.managerDomain,
    hosting: hostingOf(domain, file),
    properties: index
      .propertiesOfPublisher(domain)
      .sort((a, b) => compare(a.propertyId ?? '\uffff', b.propertyId ?? '\uffff') || compare(a.rid, b.rid))
      .map((p) => ({
        ...propertySummary(p),
        ...(p.propertyId === null ? {} : { id: p.propertyId }),
        type: p.type,
        source: 'adagents_json' as const,
      })),
    collections: index
      .collectionsOfPublisher(domain)
      .filter((c) => !c.removed)
      .sort((a, b) => compare(a.collectionId, b.collectionId))
      .map((c) => ({ collection_rid: c.rid, collection_id: c.collectionId, name: c.name, kind: c.kind })),
    authorized_agents: index
      .grantsDeclaredBy(domain)
      .sort((a, b) => compare(a.agent, b.agent) || compare(a.id, b.id))
      .map((grant) => {
        const covered = coveredBy(index, grant);
        return {
          ...grantSummary(grant),
          ...selectionOf(grant),
          ...grant.constraints,
          properties: covered.map(brief),
          url: grant.agent,
          source: 'adagents_json' as const,
          properties_authorized: covered.filter((p) => p.publisher === domain).length,
          properties_total: counts.property_count,
        };
      }),
  };
}

/**
 * Where the publisher's adagents.json lives, as the registry client reads it: on its own origin
 * (`self`), reached by authoritative_location elsewhere (`self_redirected`), or failing its last
 * re-crawl (`self_invalid`).
 */
function hostingOf(domain: string, file: IndexedPublisher) {
  const expected_url = `https://${domain}/.well-known/adagents.json`;
  const resolved = file.documentUrl;
  const elsewhere = resolved !== null && URL.canParse(resolved) && new URL(resolved).hostname !== domain;
  return {
    mode: file.stale ? ('self_invalid' as const) : elsewhere ? ('self_redirected' as const) : ('self' as const),
    expected_url,
    resolved_url: resolved,
  };
}

export function publisherCounts(index: AuthorizationIndex, domain: string) {
  const c = index.publisherCounts(domain);
  return {
    property_count: c.properties,
    stale_property_count: c.staleProperties,
    collection_count: c.collections,
    agent_count: c.agents,
    authorization_count: c.authorizations,
  };
}

/**
 * What the entry selects, in the file's own terms, from the scopes the crawler resolved (the index
 * keeps those, not the raw entry): ids, tags, signals, selectors by publisher, or for inline
 * properties their registry ids.
 */
function selectionOf(grant: IndexedGrant): Record<string, unknown> {
  // Sorted: the scopes keep no declaration order, and an answer should not depend on how they were stored.
  const values = (kind: string) =>
    grant.scopes
      .filter((s) => s.kind === kind)
      .map((s) => s.value)
      .sort(compare);
  switch (grant.authorizationType) {
    case 'property_ids':
      return { property_ids: values('property_id') };
    case 'property_tags':
      return { property_tags: values('tag') };
    case 'inline_properties':
      return { property_rids: values('rid') };
    case 'signal_ids':
      return { signal_ids: values('signal_id') };
    case 'signal_tags':
      return { signal_tags: values('signal_tag') };
    case 'publisher_properties':
      return { publisher_properties: selectors(grant) };
    default:
      return {};
  }
}

function selectors(grant: IndexedGrant) {
  const byKey = new Map<
    string,
    {
      publisher_domain: string;
      selection_type: 'all' | 'by_id' | 'by_tag';
      property_ids?: string[];
      property_tags?: string[];
    }
  >();
  for (const s of grant.scopes) {
    const selection_type =
      s.kind === 'all' ? 'all' : s.kind === 'property_id' ? 'by_id' : s.kind === 'tag' ? 'by_tag' : undefined;
    if (selection_type === undefined) continue;
    const key = `${s.target_publisher} ${selection_type}`;
    let selector = byKey.get(key);
    if (!selector) byKey.set(key, (selector = { publisher_domain: s.target_publisher, selection_type }));
    if (selection_type === 'by_id') (selector.property_ids ??= []).push(s.value);
    if (selection_type === 'by_tag') (selector.property_tags ??= []).push(s.value);
  }
  for (const selector of byKey.values()) {
    selector.property_ids?.sort(compare);
    selector.property_tags?.sort(compare);
  }
  return [...byKey.values()].sort(
    (a, b) => compare(a.publisher_domain, b.publisher_domain) || compare(a.selection_type, b.selection_type),
  );
}

/** The properties a grant covers now, publisher by publisher. */
function coveredBy(index: AuthorizationIndex, grant: IndexedGrant): IndexedProperty[] {
  const out: IndexedProperty[] = [];
  for (const target of new Set(grant.scopes.map((s) => s.target_publisher))) {
    const coverage = index.coveragesAt(target, grant.agent).find((c) => c.grant === grant);
    if (!coverage) continue; // signals, or a target without properties yet
    const covered = index.propertiesOfPublisher(target).filter((p) => covers(coverage, p));
    out.push(
      ...covered.sort((a, b) => compare(a.propertyId ?? '\uffff', b.propertyId ?? '\uffff') || compare(a.rid, b.rid)),
    );
  }
  return out;
}

function brief(p: IndexedProperty) {
  return {
    property_rid: p.rid,
    publisher_domain: p.publisher,
    property_id: p.propertyId,
    name: p.name,
    status: p.stale ? ('stale' as const) : ('active' as const),
  };
}
