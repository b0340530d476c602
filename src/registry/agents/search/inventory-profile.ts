import { covers, type AuthorizationIndex } from '../../lookups/index.ts';
import { channelsOf } from './channels.ts';
import type { AgentExtras } from './agent-extras.ts';

/** An agent's inventory profile (spec section 2, agent search result, less the search's own fields). */
export interface InventoryProfile {
  agent_url: string;
  channels: string[];
  property_types: string[];
  markets: string[];
  categories: string[];
  tags: string[];
  delivery_types: string[];
  format_ids: Array<{ agent_url: string; id: string }>;
  property_count: number;
  publisher_count: number;
  has_tmp: boolean;
  category_taxonomy: string | null;
  updated_at: string;
}

/** What the authorization graph says of an agent: the properties its grants cover, and where. */
export interface GraphPart {
  propertyTypes: Set<string>;
  tags: Set<string>;
  markets: Set<string>;
  propertyCount: number;
  publisherCount: number;
}

const signalScopes = new Set(['signal_id', 'signal_tag']);

/** The agent's share of the graph: every property a grant of it covers (each once), its types and tags, and the grants' countries. */
export function graphPart(index: AuthorizationIndex, agent: string): GraphPart {
  const part: GraphPart = {
    propertyTypes: new Set(),
    tags: new Set(),
    markets: new Set(),
    propertyCount: 0,
    publisherCount: 0,
  };
  const publishers = new Set<string>();
  for (const grant of index.grantsOf(agent)) {
    for (const country of grant.countries ?? [])
      if (/^[A-Za-z]{2}$/.test(country)) part.markets.add(country.toUpperCase());
    for (const scope of grant.scopes) if (!signalScopes.has(scope.kind)) publishers.add(scope.target_publisher);
  }
  for (const publisher of publishers) {
    const coverages = index.coveragesAt(publisher, agent);
    let any = false;
    for (const property of index.propertiesOfPublisher(publisher)) {
      if (!coverages.some((c) => covers(c, property))) continue;
      any = true;
      part.propertyCount++;
      part.propertyTypes.add(property.type);
      for (const tag of property.tags) part.tags.add(tag);
    }
    if (any) part.publisherCount++;
  }
  return part;
}

/** The profile from the graph's part and what probing and enrollment add (an agent that is not enrolled has only the graph's). */
export function profileOf(
  agent: string,
  graph: GraphPart,
  extras: AgentExtras | undefined,
  updatedAt: string,
): InventoryProfile {
  const channels = new Set([...channelsOf(graph.propertyTypes), ...(extras?.channels ?? [])]);
  const markets = new Set([...graph.markets, ...(extras?.markets ?? [])]);
  return {
    agent_url: agent,
    channels: [...channels].sort(),
    property_types: [...graph.propertyTypes].sort(),
    markets: [...markets].sort(),
    categories: [...(extras?.categories ?? [])].sort(),
    tags: [...graph.tags].sort(),
    delivery_types: [...(extras?.deliveryTypes ?? [])].sort(),
    format_ids: extras?.formatIds ?? [],
    property_count: graph.propertyCount,
    publisher_count: graph.publisherCount,
    has_tmp: extras?.hasTmp ?? false,
    category_taxonomy: extras?.categoryTaxonomy ?? null,
    updated_at: updatedAt,
  };
}
