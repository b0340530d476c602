-- Why: a property entry is what the registry knows about a publisher domain: the agents it
-- authorizes and the inventory it declares. Community entries are saved through the API and
-- revisioned; adagents_json entries are projected from the publisher's own file (authoritative).
create table properties (
  id uuid primary key,
  publisher_domain text not null unique,
  source text not null check (source in ('adagents_json', 'community')),
  status text not null default 'active' check (status in ('active', 'stale')),
  authorized_agents jsonb not null default '[]'::jsonb,
  inventory jsonb not null default '[]'::jsonb,
  contact jsonb,
  revision integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index properties_source on properties (source, publisher_domain);

create table property_revisions (
  property_id uuid not null references properties (id) on delete cascade,
  revision_number integer not null,
  editor_name text not null,
  edit_summary text not null,
  source text not null,
  is_rollback boolean not null default false,
  rolled_back_to integer,
  snapshot jsonb not null,
  created_at timestamptz not null default now(),
  primary key (property_id, revision_number)
);
