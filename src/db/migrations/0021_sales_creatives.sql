-- Why: the sales agent keeps a creative library (sync_creatives, list_creatives): each buyer's
-- creatives per account, checked against the standard formats, with a review status, and assigned
-- to packages of the buyer's media buys. A creative outlives the buys it served: canceling a buy
-- removes nothing here.
create table sales_creatives (
  -- Order they were first synced in; ties of list_creatives' sorts break on it.
  seq bigint generated always as identity,
  -- The account's owner, as for accounts and media buys: list_creatives without an account reads all of them.
  owner text not null,
  account_id text not null references sales_accounts (account_id),
  -- The buyer's own id: unique within the account.
  creative_id text not null,
  name text not null,
  -- core/format-id.json as sent, and `<agent_url> <id>` to filter on.
  format_id jsonb not null,
  format_key text not null,
  assets jsonb not null,
  tags text[] not null,
  status text not null check (status in ('processing', 'pending_review', 'approved', 'rejected', 'archived')),
  -- The creative's other fields as sent (inputs, industry_identifiers, provenance...).
  details jsonb not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (account_id, creative_id)
);
create index sales_creatives_owner on sales_creatives (owner, seq);

create table sales_creative_assignments (
  account_id text not null,
  creative_id text not null,
  package_id text not null references sales_media_buy_packages (package_id),
  -- Relative delivery weight (0-100); null: equal rotation.
  weight numeric check (weight >= 0 and weight <= 100),
  placement_ids jsonb,
  assigned_at timestamptz not null,
  primary key (account_id, creative_id, package_id),
  foreign key (account_id, creative_id) references sales_creatives (account_id, creative_id)
);
create index sales_creative_assignments_package on sales_creative_assignments (package_id);
