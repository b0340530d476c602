-- Why: the sales agent keeps the advertiser accounts its buyers declare (sync_accounts) so that a
-- later request's `account` reference resolves to one account of that caller, by the id the seller
-- gave it or by its natural key; every state change is kept with who made it and when.
create table sales_accounts (
  -- Keyset order of list_accounts: the order accounts were made in.
  seq bigint generated always as identity,
  account_id text primary key,
  -- Whose account it is: `org:<organization id>`, or `<kind>:<subject>` of a caller with none.
  owner text not null,
  brand_domain text not null,
  -- Null: the domain's one brand (core/brand-ref.json without brand_id).
  brand_id text,
  operator text not null,
  sandbox boolean not null,
  -- The brand reference as the buyer sent it, echoed in answers.
  brand jsonb not null,
  billing text not null check (billing in ('operator', 'agent', 'advertiser')),
  -- As sent, bank details included (write-only: stored, never answered).
  billing_entity jsonb,
  payment_terms text not null,
  status text not null check (status in ('active', 'pending_approval', 'rejected', 'payment_required', 'suspended', 'closed')),
  created_at timestamptz not null
);
-- A closed account is terminal and gives up its natural key: syncing the key again opens a new one.
create unique index sales_accounts_natural_key on sales_accounts (owner, brand_domain, coalesce(brand_id, ''), operator, sandbox) where status <> 'closed';
create index sales_accounts_owner on sales_accounts (owner, seq);

create table sales_account_changes (
  id bigint generated always as identity primary key,
  account_id text not null references sales_accounts (account_id),
  change text not null check (change in ('created', 'updated', 'closed', 'status')),
  -- The account's status after the change.
  status text not null,
  -- `<kind>:<subject>` of the principal that made it.
  changed_by text not null,
  changed_at timestamptz not null
);
create index sales_account_changes_account on sales_account_changes (account_id, id);
