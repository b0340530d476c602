-- Why: a buyer's property lists live with the governance agent. Only what defines a list is
-- stored (its sources, filters, brand); its members are resolved from the registry's
-- authorization index whenever it is read, so they follow the registry as it changes.
create table governance_property_lists (
  list_id text primary key,
  -- Whose list (runtime/owner.ts): no other caller reads, changes or deletes it.
  owner text not null,
  name text not null,
  description text,
  -- base_properties, filters and brand, as the request gave them.
  definition jsonb not null,
  webhook_url text,
  -- SHA-256 of the token the list's owner shares with sellers; the token itself is answered once.
  auth_token_hash bytea not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  -- What the list resolved to when last looked at for its webhook (SHA-256 of its identifiers, and
  -- how many): a change announces itself once, whichever instance sees it first.
  members_hash text,
  members_count integer,
  seq bigint generated always as identity
);
create index governance_property_lists_by_owner on governance_property_lists (owner, seq);
