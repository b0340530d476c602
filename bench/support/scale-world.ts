/**
 * The generated registry of the scale benchmarks: 100,000 publishers (BENCH_INDEX_PUBLISHERS) of
 * ten properties each, under eleven grants each to a thousand agents, as the feed's snapshot items
 * describe them. Deterministic, so every run and every process builds the same registry.
 */
export const PUBLISHERS = Number(process.env.BENCH_INDEX_PUBLISHERS ?? 100_000);
export const PROPERTIES_PER_PUBLISHER = 10;
export const AGENTS = 1000;
/** Nine grants of the whole catalog, one of five property ids, one of the five premium properties. */
export const GRANTS_PER_PUBLISHER = 11;

type Json = Record<string, unknown>;

export const rid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
export const grantId = (n: number) => `00000000-0000-4000-9000-${n.toString(16).padStart(12, '0')}`;
export const agentUrl = (a: number) => `https://sales.agent-${a}.example/mcp`;
export const publisherDomain = (i: number) => `p${i}.example`;
export const agentOf = (i: number, j: number) => (i * 7 + j * 97) % AGENTS;
export const delegationOf = (j: number) => (['direct', 'delegated', 'ad_network'] as const)[j % 3]!;
/** 1% of publishers failed their last re-crawl. */
export const isStale = (i: number) => i % 100 === 0;

export function identifierOf(i: number, k: number): { type: string; value: string; propertyType: string } {
  if (k === 0) return { type: 'domain', value: publisherDomain(i), propertyType: 'website' };
  if (k < 4) return { type: 'subdomain', value: `s${k}.${publisherDomain(i)}`, propertyType: 'website' };
  if (k < 6) return { type: 'ios_bundle', value: `com.p${i}.app${k}`, propertyType: 'mobile_app' };
  if (k < 8) return { type: 'android_package', value: `com.p${i}.android${k}`, propertyType: 'mobile_app' };
  return { type: 'roku_store_id', value: `p${i}-roku-${k}`, propertyType: 'ctv_app' };
}

/** The operators of the publisher's first two grants (direct and delegated) declare all its properties. */
export function declarationsOf(i: number): Json[] {
  return [0, 1].map((j) => {
    const o = agentOf(i, j) >> 1;
    return {
      operator_domain: `op${o}.example`,
      brand_id: `op${o}`,
      relationship: j === 0 ? 'owned' : 'delegated',
      agents: [agentUrl(2 * o), agentUrl(2 * o + 1)],
    };
  });
}

/** One publisher's snapshot items, as the feed's snapshot carries them; and how many agent-property edges its grants make. */
export function publisherItems(i: number): { items: Array<[string, Json]>; edges: number } {
  const domain = publisherDomain(i);
  const items: Array<[string, Json]> = [
    [
      'publisher',
      {
        publisher_domain: domain,
        status: isStale(i) ? 'stale' : 'active',
        ...(isStale(i) ? { reason: 'adagents.json answered HTTP 404' } : {}),
      },
    ],
  ];
  for (let k = 0; k < PROPERTIES_PER_PUBLISHER; k++) {
    const { type, value, propertyType } = identifierOf(i, k);
    items.push([
      'property',
      {
        property_rid: rid(i * PROPERTIES_PER_PUBLISHER + k),
        publisher_domain: domain,
        identifiers: [{ type, value }],
        property: {
          property_id: `prop_${k}`,
          property_type: propertyType,
          name: `Publisher ${i} property ${k}`,
          tags: [k < 4 ? 'web' : 'app', k % 2 === 0 ? 'premium' : 'standard'],
        },
        status: 'active',
        operator_declarations: declarationsOf(i),
      },
    ]);
  }
  let edges = 0;
  for (let j = 0; j < GRANTS_PER_PUBLISHER; j++) {
    const agent = agentUrl(agentOf(i, j));
    let scopes: Json[];
    let type: string;
    if (j < 9) {
      type = 'publisher_properties';
      scopes = [{ target_publisher: domain, kind: 'all', value: '' }];
      edges += PROPERTIES_PER_PUBLISHER;
    } else if (j === 9) {
      type = 'property_ids';
      scopes = [0, 1, 2, 3, 4].map((k) => ({ target_publisher: domain, kind: 'property_id', value: `prop_${k}` }));
      edges += 5;
    } else {
      type = 'property_tags';
      scopes = [{ target_publisher: domain, kind: 'tag', value: 'premium' }];
      edges += PROPERTIES_PER_PUBLISHER / 2;
    }
    items.push([
      'authorization',
      {
        id: grantId(i * GRANTS_PER_PUBLISHER + j),
        publisher_domain: domain,
        agent_url: agent,
        agent_url_canonical: agent,
        authorization_type: type,
        authorized_for: 'Display and video inventory',
        delegation_type: delegationOf(j),
        scopes,
      },
    ]);
  }
  return { items, edges };
}

/**
 * What resolve answers for the publisher's entry (projected from its adagents.json), as the
 * snapshot's `resolution` section carries it: the mirror holds one per publisher.
 */
export function entryResolution(i: number): Json {
  const domain = publisherDomain(i);
  return {
    kind: 'property',
    domain,
    resolution: {
      id: rid(1e9 + i),
      publisher_domain: domain,
      source: 'adagents_json',
      status: isStale(i) ? 'stale' : 'active',
      authorized_agents: Array.from({ length: GRANTS_PER_PUBLISHER }, (_, j) => ({
        url: agentUrl(agentOf(i, j)),
        authorized_for: 'Display and video inventory',
      })),
      properties: Array.from({ length: PROPERTIES_PER_PUBLISHER }, (_, k) => ({
        type: identifierOf(i, k).propertyType,
        name: `Publisher ${i} property ${k}`,
      })),
      revision_number: 1,
      updated_at: '2026-11-01T00:00:00.000Z',
      verified: !isStale(i),
    },
  };
}
