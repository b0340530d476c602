-- Why: the agent catalog (registry-api spec sections 1 and 4, GET /api/registry/agents). Member
-- organizations enroll the agents they operate, on hosts they have proven control of; the list
-- shows each to the callers its visibility allows. Probing results live in their own table.
create table registry_agents (
  -- The agent's URL as enrolled, normalized (lower-case scheme and host, no default port, no
  -- fragment): the catalog's key and the feed's entity_id for agent.* events.
  agent_url text primary key,
  -- The host it is served from, which the organization has proven control of.
  host text not null,
  organization_id uuid not null references organizations (id) on delete cascade,
  type text not null check (type in ('brand', 'rights', 'measurement', 'governance', 'creative', 'sales', 'buying', 'signals')),
  name text not null check (length(name) between 1 and 200),
  description text check (length(description) <= 2000),
  visibility text not null check (visibility in ('public', 'members_only', 'private')),
  enrolled_at timestamptz not null,
  updated_at timestamptz not null
);
create index registry_agents_organization on registry_agents (organization_id);
create index registry_agents_host on registry_agents (host);
