import type { AuthorizationIndex } from './authorization-index.ts';
import { covers } from './coverage.ts';
import { IndexAnswers } from './index-answers.ts';
import { publisherStatus } from './render.ts';

export interface AgentDomain {
  domain: string;
  status: 'active' | 'stale' | 'unknown';
  property_count: number;
  authorizations: Array<{
    authorization_id: string;
    source_domain: string;
    authorized_for: string | null;
    delegation_type: string | null;
  }>;
}

/** The lists of the index as it stands, so pages 2..n reuse page 1's work. */
const lists = new IndexAnswers<AgentDomain[]>({ entries: 256 });

/** Every publisher domain `agent` holds a grant for, sorted, with the properties covered there. */
export function agentDomains(index: AuthorizationIndex, agent: string): AgentDomain[] {
  return lists.get(index, agent, () => domainsOf(index, agent));
}

function domainsOf(index: AuthorizationIndex, agent: string): AgentDomain[] {
  const targets = new Set(
    index
      .grantsOf(agent)
      .flatMap((g) =>
        g.scopes.filter((s) => s.kind !== 'signal_id' && s.kind !== 'signal_tag').map((s) => s.target_publisher),
      ),
  );
  return [...targets].sort().map((domain): AgentDomain => {
    const coverages = index.coveragesAt(domain, agent);
    return {
      domain,
      status: publisherStatus(index, domain),
      property_count: index.propertiesOfPublisher(domain).filter((p) => coverages.some((c) => covers(c, p))).length,
      authorizations: coverages.map(({ grant: g }) => ({
        authorization_id: g.id,
        source_domain: g.source,
        authorized_for: g.authorizedFor,
        delegation_type: g.delegationType,
      })),
    };
  });
}
