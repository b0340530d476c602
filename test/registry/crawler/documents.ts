/** adagents.json and brand.json documents for the crawler's tests, valid against schemas/3.0.6. */

export interface AgentOptions {
  url?: string;
  type?: 'property_ids' | 'property_tags' | 'inline_properties' | 'publisher_properties';
  extra?: Record<string, unknown>;
}

export function property(id: string, domain: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    property_id: id,
    property_type: 'website',
    name: `Site ${id}`,
    identifiers: [{ type: 'domain', value: domain }],
    tags: ['news'],
    ...extra,
  };
}

export function agent(url: string, ids: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    url,
    authorized_for: 'Display and video',
    authorization_type: 'property_ids',
    property_ids: ids,
    delegation_type: 'direct',
    ...extra,
  };
}

/** A publisher's file: its own site plus whatever agents and extra properties the test gives. */
export function adagents(
  domain: string,
  parts: {
    agents?: Record<string, unknown>[];
    properties?: Record<string, unknown>[];
    collections?: Record<string, unknown>[];
  } = {},
): Record<string, unknown> {
  const properties = parts.properties ?? [property('main', domain)];
  return {
    $schema: '/schemas/3.0.6/adagents.json',
    contact: { name: 'Ad Ops', email: `ops@${domain}` },
    properties,
    ...(parts.collections ? { collections: parts.collections } : {}),
    authorized_agents: parts.agents ?? [agent('https://sales.example/ap', [String(properties[0]!['property_id'])])],
    last_updated: '2026-11-01T00:00:00Z',
  };
}
