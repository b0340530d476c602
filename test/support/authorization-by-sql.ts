import type { Queryable } from '../../src/db/database.ts';
import { canonicalAgentUrl } from '../../src/protocol/agent-url.ts';
import type { Question } from './random-authorization-world.ts';

export interface Answer {
  status: string;
  code: string | null;
}

/**
 * The real-time authorization check evaluated straight from the graph's tables, in one query for a
 * batch of questions: a second implementation of the rules the in-memory index follows (stated in
 * src/registry/lookups/check.ts), sharing none of its code, to test the index against.
 *
 * Per property the question names (by identifier, domains compared lowercase, or by the
 * publisher's property_id):
 * - stale property or stale publisher: unknown, property_stale;
 * - no grant of the agent covers it: unauthorized, agent_not_authorized;
 * - none with the claimed delegation_type: unauthorized, delegation_mismatch;
 * - no operator whose brand.json lists the agent declares one of its identifiers (a website as a
 *   domain or subdomain, anything else as any other identifier): unauthorized, operator_not_declared;
 * - none of those declarations has a relationship matching the delegation (the claimed one; else
 *   any one the publisher states for the agent; `owned` matches `direct`; no delegation stated
 *   matches any): unauthorized, relationship_mismatch;
 * - otherwise authorized.
 * Several properties: authorized beats unknown beats unauthorized, and among refusals the one that
 * got furthest through the checks is told. No property: a domain that is a known publisher, or a
 * known publisher's property_id, is unauthorized (property_not_found); anything else unknown
 * (publisher_file_unknown).
 */
export async function answerBySql(db: Queryable, questions: readonly Question[]): Promise<Answer[]> {
  const input = questions.map((q, n) => ({
    n,
    agent: canonicalAgentUrl(q.agent_url),
    id_type: q.identifier?.type ?? null,
    id_value: q.identifier?.value ?? null,
    publisher: q.publisher_domain?.toLowerCase() ?? null,
    property_id: q.property_id ?? null,
    claimed: q.delegation_type ?? null,
  }));
  const rows = await db.query<{ n: number; status: string; code: string | null }>(sql, [JSON.stringify(input)]);
  return rows.map((row) => ({ status: row.status, code: row.code }));
}

const sql = `
with q as (
  select * from jsonb_to_recordset($1::jsonb) as x(n int, agent text, id_type text, id_value text, publisher text, property_id text, claimed text)
),
named as (
  select q.n, i.property_rid
  from q join property_identifiers i
    on i.identifier_type = q.id_type
   and i.identifier_value = case when q.id_type in ('domain', 'subdomain') then lower(q.id_value) else q.id_value end
  union
  select q.n, p.property_rid
  from q join catalog_properties p on q.id_type is null and p.publisher_domain = q.publisher and p.property_id = q.property_id
),
candidate as (
  select named.n, p.property_rid, p.publisher_domain, p.property_id, p.tags, (p.status = 'stale' or pub.status = 'stale') as stale
  from named
  join catalog_properties p on p.property_rid = named.property_rid
  join publishers pub on pub.domain = p.publisher_domain
),
covering as (
  select c.n, c.property_rid, a.delegation_type
  from candidate c
  join q on q.n = c.n
  join authorizations a on a.agent_url_canonical = q.agent
  where exists (
    select 1 from authorization_scopes s
    where s.authorization_id = a.id and s.target_publisher = c.publisher_domain
      and (s.kind = 'all'
        or (s.kind = 'rid' and s.value = c.property_rid::text)
        or (s.kind = 'property_id' and s.value = c.property_id)
        or (s.kind = 'tag' and s.value = any (c.tags)))
  )
),
matching as (
  select g.* from covering g join q on q.n = g.n where q.claimed is null or g.delegation_type = q.claimed
),
-- What the operator must confirm: each delegation the matching grants state (the claim, when one
-- is made); none stated at all reads as null, which any relationship matches.
delegation as (
  select distinct m.n, m.property_rid, m.delegation_type
  from matching m
  where m.delegation_type is not null
     or not exists (select 1 from matching o where o.n = m.n and o.property_rid = m.property_rid and o.delegation_type is not null)
),
declaration as (
  select distinct c.n, c.property_rid, op.relationship
  from candidate c
  join q on q.n = c.n
  join property_identifiers i on i.property_rid = c.property_rid
  join operator_properties op
    on op.identifier = lower(i.identifier_value)
   and (op.property_type = 'website') = (i.identifier_type in ('domain', 'subdomain'))
  where exists (select 1 from operator_agents oa where oa.operator_domain = op.operator_domain and oa.url_canonical = q.agent)
),
verdict as (
  select c.n,
    case
      when c.stale then 'property_stale'
      when not exists (select 1 from covering g where g.n = c.n and g.property_rid = c.property_rid) then 'agent_not_authorized'
      when not exists (select 1 from matching m where m.n = c.n and m.property_rid = c.property_rid) then 'delegation_mismatch'
      when not exists (select 1 from declaration d where d.n = c.n and d.property_rid = c.property_rid) then 'operator_not_declared'
      when not exists (
        select 1 from declaration d join delegation e on e.n = d.n and e.property_rid = d.property_rid
        where d.n = c.n and d.property_rid = c.property_rid
          and (e.delegation_type is null or d.relationship = e.delegation_type or (d.relationship = 'owned' and e.delegation_type = 'direct'))
      ) then 'relationship_mismatch'
    end as code
  from candidate c
),
ranked as (
  select v.n, v.code,
    row_number() over (partition by v.n order by case
      when v.code is null then 0 when v.code = 'property_stale' then 1 when v.code = 'relationship_mismatch' then 2
      when v.code = 'operator_not_declared' then 3 when v.code = 'delegation_mismatch' then 4 else 5 end) as place
  from verdict v
)
select q.n,
  case
    when r.n is not null then case when r.code is null then 'authorized' when r.code = 'property_stale' then 'unknown' else 'unauthorized' end
    when q.id_type is null and exists (select 1 from publishers where domain = q.publisher) then 'unauthorized'
    when q.id_type in ('domain', 'subdomain') and exists (select 1 from publishers where domain = lower(q.id_value)) then 'unauthorized'
    else 'unknown'
  end as status,
  case
    when r.n is not null then r.code
    when q.id_type is null and exists (select 1 from publishers where domain = q.publisher) then 'property_not_found'
    when q.id_type in ('domain', 'subdomain') and exists (select 1 from publishers where domain = lower(q.id_value)) then 'property_not_found'
    else 'publisher_file_unknown'
  end as code
from q left join ranked r on r.n = q.n and r.place = 1
order by q.n`;
