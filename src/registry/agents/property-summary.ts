import { compare, covers, type AgentDomain, type AuthorizationIndex } from '../lookups/index.ts';

/** Tags a summary names at most (sorted); the counts are of all. */
export const summaryTags = 100;

/**
 * What an agent is authorized to sell, summed up as the protocol's registry client reads it
 * (its PropertySummary): the properties its grants cover at each publisher the agent-domains
 * lookup lists (`domains`), by property type, with their tags.
 */
export function propertySummaryOf(index: AuthorizationIndex, agent: string, domains: readonly AgentDomain[]) {
  const byType = new Map<string, number>();
  const tags = new Set<string>();
  let total = 0;
  for (const { domain } of domains) {
    const coverages = index.coveragesAt(domain, agent);
    for (const property of index.propertiesOfPublisher(domain)) {
      if (!coverages.some((c) => covers(c, property))) continue;
      total++;
      byType.set(property.type, (byType.get(property.type) ?? 0) + 1);
      for (const tag of property.tags) tags.add(tag);
    }
  }
  return {
    total_count: total,
    count_by_type: Object.fromEntries([...byType].sort(([a], [b]) => compare(a, b))),
    tags: [...tags].sort(compare).slice(0, summaryTags),
    publisher_count: domains.length,
  };
}
