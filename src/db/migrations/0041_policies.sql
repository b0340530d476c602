-- Why: the policy registry (issue 34): the governance policies that plans and content standards reference
-- by policy_id (governance/policy-entry.json). A policy is published by the registry itself
-- (source_type registry, never editable by a community save) or contributed by an organization
-- (community, editable by that organization). Every write is a numbered revision whose snapshot
-- holds the whole entry, so a policy's history can be read and a version pinned.
create table policies (
  policy_id text primary key check (policy_id ~ '^[a-z0-9][a-z0-9_:.-]{0,127}$'),
  source_type text not null check (source_type in ('registry', 'community')),
  review_status text not null check (review_status in ('pending', 'approved')),
  -- The contributing organization of a community policy (null for the registry's own).
  owner_organization_id uuid references organizations (id) on delete set null,
  version text not null,
  -- The policy-entry as saved: every field but source, the filters of the listing read it.
  entry jsonb not null,
  revision integer not null check (revision >= 1),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table policy_revisions (
  policy_id text not null references policies (policy_id) on delete cascade,
  revision_number integer not null check (revision_number >= 1),
  version text not null,
  source_type text not null,
  review_status text not null,
  editor_name text not null,
  -- Who saved it, as the change feed's actor records it (api:<kind>:<subject>, or a pipeline).
  saved_by text not null,
  organization_id uuid,
  edit_summary text not null,
  snapshot jsonb not null,
  created_at timestamptz not null default now(),
  primary key (policy_id, revision_number)
);

-- Pinning a version reads the newest revision that carries it.
create index policy_revisions_version on policy_revisions (policy_id, version, revision_number desc);
