import { covers, type AuthorizationIndex } from './authorization-index.ts';
import { publisherStatus } from './render.ts';

export interface AgentDomain {
  domain: string;
  status: 'active' | 'stale' | 'unknown';
  property_count: number;
  authorizations: Array<{ authorization_id: string; source_domain: string; authorized_for: string | null; delegation_type: string | null }>;
}

/** Per index: the index version the lists were computed at, and the lists, so pages 2..n reuse page 1's work. */
const cache = new WeakMap<AuthorizationIndex, { version: number; byAgent: Map<string, AgentDomain[]> }>();
const cachedAgents = 256;

/** Every publisher domain `agent` holds a grant for, sorted, with the properties covered there. */
export function agentDomains(index: AuthorizationIndex, agent: string): AgentDomain[] {
  let entry = cache.get(index);
  if (!entry || entry.version !== index.version) cache.set(index, (entry = { version: index.version, byAgent: new Map() }));
  const hit = entry.byAgent.get(agent);
  if (hit) return hit;
  const targets = new Set(index.grantsOf(agent).flatMap((g) => g.scopes.filter((s) => s.kind !== 'signal_id' && s.kind !== 'signal_tag').map((s) => s.target_publisher)));
  const list = [...targets].sort().map((domain): AgentDomain => {
    const coverages = index.coveragesAt(domain, agent);
    return {
      domain,
      status: publisherStatus(index, domain),
      property_count: index.propertiesOfPublisher(domain).filter((p) => coverages.some((c) => covers(c, p))).length,
      authorizations: coverages.map(({ grant: g }) => ({ authorization_id: g.id, source_domain: g.source, authorized_for: g.authorizedFor, delegation_type: g.delegationType })),
    };
  });
  if (entry.byAgent.size >= cachedAgents) entry.byAgent.delete(entry.byAgent.keys().next().value!);
  entry.byAgent.set(agent, list);
  return list;
}
