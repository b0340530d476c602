import type { AgentExtras } from './agent-extras.ts';
import type { InventoryProfile } from './inventory-profile.ts';
import { dimensions, type SearchQuery } from './search-query.ts';

export interface Ranked {
  profile: InventoryProfile;
  relevance_score: number;
  matched_filters: string[];
  /** Who the agent is, as enrollment and probing say (absent: only the graph knows it). */
  extras?: AgentExtras | undefined;
}

/**
 * Whether the profile passes the search (AND across dimensions, OR within one), and its rank:
 * the breadth of its match (for each dimension filtered on, the share of the values asked for it
 * has) plus 0.1·ln(property_count + 1), plus 0.05 with TMP (spec section 8).
 */
export function rank(profile: InventoryProfile, query: SearchQuery): Ranked | undefined {
  if (query.hasTmp !== undefined && profile.has_tmp !== query.hasTmp) return undefined;
  if (query.minProperties !== undefined && profile.property_count < query.minProperties) return undefined;
  let breadth = 0;
  const matched: string[] = [];
  for (const dimension of dimensions) {
    const wanted = query.filters.get(dimension);
    if (!wanted) continue;
    const has = profile[dimension];
    let hits = 0;
    for (const value of has) if (wanted.has(value)) hits++;
    if (hits === 0) return undefined;
    breadth += hits / wanted.size;
    matched.push(dimension);
  }
  if (query.hasTmp !== undefined) matched.push('has_tmp');
  if (query.minProperties !== undefined) matched.push('min_properties');
  const score = breadth + 0.1 * Math.log(profile.property_count + 1) + (profile.has_tmp ? 0.05 : 0);
  return { profile, relevance_score: Math.round(score * 1e6) / 1e6, matched_filters: matched };
}

/** Best first; equal scores in agent URL order, so a ranking is one total order. */
export const byRank = (a: Ranked, b: Ranked): number =>
  b.relevance_score - a.relevance_score ||
  (a.profile.agent_url < b.profile.agent_url ? -1 : a.profile.agent_url > b.profile.agent_url ? 1 : 0);
