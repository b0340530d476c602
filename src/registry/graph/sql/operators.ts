import type { Queryable } from '../../../db/database.ts';

/** Operators' side: the agents and properties an operator's brand.json declares. */

type Json = Record<string, unknown>;

export interface OperatorAgent {
  agent_id: string;
  agent_type: string;
  url: string;
  url_canonical: string;
  jwks_uri: string | null;
  entry: Json;
}

export interface OperatorProperty {
  brand_id: string;
  property_type: string;
  identifier: string;
  relationship: string;
  entry: Json;
}

/** The operator's brand.json is the whole truth about its side: its rows are replaced together. */
export async function replaceOperator(
  tx: Queryable,
  operator: string,
  agents: OperatorAgent[],
  properties: OperatorProperty[],
): Promise<void> {
  await tx.query(`delete from operator_agents where operator_domain = $1`, [operator]);
  await tx.query(`delete from operator_properties where operator_domain = $1`, [operator]);
  if (agents.length > 0) {
    await tx.query(
      `insert into operator_agents (operator_domain, agent_id, agent_type, url, url_canonical, jwks_uri, entry)
       select $1, x.agent_id, x.agent_type, x.url, x.url_canonical, x.jwks_uri, x.entry
       from jsonb_to_recordset($2::jsonb) as x(agent_id text, agent_type text, url text, url_canonical text, jwks_uri text, entry jsonb)
       on conflict do nothing`,
      [operator, JSON.stringify(agents)],
    );
  }
  if (properties.length > 0) {
    await tx.query(
      `insert into operator_properties (operator_domain, brand_id, property_type, identifier, relationship, entry)
       select $1, x.brand_id, x.property_type, x.identifier, x.relationship, x.entry
       from jsonb_to_recordset($2::jsonb) as x(brand_id text, property_type text, identifier text, relationship text, entry jsonb)
       on conflict do nothing`,
      [operator, JSON.stringify(properties)],
    );
  }
}

export interface DeclarationRow {
  operator_domain: string;
  brand_id: string;
  property_type: string;
  identifier: string;
  relationship: string;
  agents: string[];
}

/** Operators' declared properties whose identifier is one of `values` (lowercase), with the operator's agents. */
export async function declarationsFor(db: Queryable, values: string[]): Promise<DeclarationRow[]> {
  return db.query<DeclarationRow>(
    `select op.operator_domain, op.brand_id, op.property_type, op.identifier, op.relationship,
       array(select distinct oa.url_canonical from operator_agents oa where oa.operator_domain = op.operator_domain order by 1) as agents
     from operator_properties op where op.identifier = any($1::text[])`,
    [values],
  );
}

export async function operatorAgents(db: Queryable, operator: string): Promise<OperatorAgent[]> {
  return db.query<OperatorAgent>(
    `select agent_id, agent_type, url, url_canonical, jwks_uri, entry from operator_agents where operator_domain = $1 order by agent_id`,
    [operator],
  );
}

export async function operatorProperties(db: Queryable, operator: string): Promise<OperatorProperty[]> {
  return db.query<OperatorProperty>(
    `select brand_id, property_type, identifier, relationship, entry from operator_properties where operator_domain = $1 order by brand_id, property_type, identifier`,
    [operator],
  );
}
