import type { Queryable } from '../../db/database.ts';
import * as sql from './sql/index.ts';

/** An agent an operator's brand.json lists. */
export interface DeclaredAgent {
  agent_id: string;
  agent_type: string;
  /** Canonical, as the authorization graph keys agents. */
  url: string;
}

/**
 * What the crawled brand.json of `domain` says of the domain as an operator: the agents it lists,
 * and whether it declares anything at all (agents or properties), so "never seen" and "seen,
 * lists no agent" stay apart.
 */
export async function operatorSide(
  db: Queryable,
  domain: string,
): Promise<{ known: boolean; agents: DeclaredAgent[] }> {
  const [agents, properties] = await Promise.all([sql.operatorAgents(db, domain), sql.operatorProperties(db, domain)]);
  return {
    known: agents.length > 0 || properties.length > 0,
    agents: agents.map((a) => ({ agent_id: a.agent_id, agent_type: a.agent_type, url: a.url_canonical })),
  };
}
