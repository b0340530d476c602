-- Why: the crawler projects each publisher's adagents.json and each operator's brand.json into
-- an authorization graph that lookups and real-time checks answer from, and diffs every crawl
-- against it to emit feed events. The crawl queue lives here too, so any number of instances share it.

-- One row per publisher whose adagents.json was ever projected.
create table publishers (
  domain text primary key,
  status text not null check (status in ('active', 'stale')),
  -- Where the file was finally read, after authoritative_location hops.
  document_url text not null,
  manager_domain text,
  document_hash text not null,
  stale_reason text,
  discovered_at timestamptz not null,
  crawled_at timestamptz not null
);

-- Properties a publisher declares. property_rid is the registry's stable id; property_key is how a
-- re-crawl finds the same property again (its property_id, else its first identifier).
create table catalog_properties (
  property_rid uuid primary key,
  publisher_domain text not null references publishers (domain) on delete cascade,
  property_key text not null,
  property_id text,
  property_type text not null,
  name text not null,
  tags text[] not null default '{}',
  property jsonb not null,
  status text not null check (status in ('active', 'stale')),
  stale_reason text,
  last_resolved_at timestamptz not null,
  -- Deferred: a re-crawl may swap two properties' keys within one transaction.
  unique (publisher_domain, property_key) deferrable initially deferred
);
create index catalog_properties_tags on catalog_properties using gin (tags);

-- Identifier -> property, for "which agents may sell this site or app".
create table property_identifiers (
  identifier_type text not null,
  identifier_value text not null,
  property_rid uuid not null references catalog_properties (property_rid) on delete cascade,
  primary key (identifier_type, identifier_value, property_rid)
);
create index property_identifiers_rid on property_identifiers (property_rid);

-- A property record merged into another keeps resolving to it.
create table property_aliases (
  alias_rid uuid primary key,
  canonical_rid uuid not null
);

create table catalog_collections (
  collection_rid uuid primary key,
  publisher_domain text not null references publishers (domain) on delete cascade,
  collection_id text not null,
  name text not null,
  kind text,
  identifiers jsonb not null,
  collection jsonb not null,
  status text not null check (status in ('active', 'removed')),
  unique (publisher_domain, collection_id) deferrable initially deferred
);

-- One authorized_agents[] entry. auth_key (canonical agent URL, authorization type, ordinal) is
-- how a re-crawl recognises the same grant, so a changed scope reads as modified, not revoked and granted.
create table authorizations (
  id uuid primary key,
  publisher_domain text not null references publishers (domain) on delete cascade,
  auth_key text not null,
  agent_url text not null,
  agent_url_canonical text not null,
  authorization_type text not null,
  authorized_for text,
  delegation_type text,
  entry jsonb not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (publisher_domain, auth_key)
);
create index authorizations_agent on authorizations (agent_url_canonical);

-- What each authorization covers, flattened so both directions are one indexed join:
-- kind 'all' (every property of target_publisher), 'property_id', 'tag', 'rid' (an inline
-- property), 'signal_id' or 'signal_tag'; value is empty for 'all'.
create table authorization_scopes (
  authorization_id uuid not null references authorizations (id) on delete cascade,
  target_publisher text not null,
  kind text not null check (kind in ('all', 'property_id', 'tag', 'rid', 'signal_id', 'signal_tag')),
  value text not null,
  primary key (authorization_id, target_publisher, kind, value)
);
create index authorization_scopes_target on authorization_scopes (target_publisher, kind, value);

-- Every agent URL ever seen in an adagents.json, so agent.discovered is emitted once per agent.
create table discovered_agents (
  agent_url_canonical text primary key,
  agent_url text not null,
  first_publisher text not null,
  discovered_at timestamptz not null
);

-- The operator side, from brand.json: the agents an operator runs and the properties it declares.
create table operator_agents (
  operator_domain text not null,
  agent_id text not null,
  agent_type text not null,
  url text not null,
  url_canonical text not null,
  jwks_uri text,
  entry jsonb not null,
  primary key (operator_domain, agent_id)
);
create index operator_agents_url on operator_agents (url_canonical);

create table operator_properties (
  operator_domain text not null,
  brand_id text not null,
  property_type text not null,
  identifier text not null,
  relationship text not null,
  entry jsonb not null,
  primary key (operator_domain, brand_id, property_type, identifier)
);
create index operator_properties_identifier on operator_properties (identifier, property_type);

-- The crawl queue: a domain is due at next_crawl_at; a worker claims it by setting claimed_until
-- (a lease, so a crashed worker's domains come back) and sets the next due time when done.
create table crawl_targets (
  domain text primary key,
  next_crawl_at timestamptz not null,
  claimed_until timestamptz,
  -- Consecutive transient failures, for backoff; reset by any definite answer.
  failures integer not null default 0,
  last_crawled_at timestamptz,
  last_outcome text,
  last_error text
);
create index crawl_targets_due on crawl_targets (next_crawl_at);
