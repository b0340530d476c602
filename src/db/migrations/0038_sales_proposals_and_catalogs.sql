-- Why: the sales agent makes proposals (sales-proposal-mode): get_products answers a media plan
-- over the products a brief matches, and create_media_buy with its proposal_id buys it while the
-- proposal is valid; the seller keeps its own proposal registry, since each get_products call is
-- self-contained. And it takes buyers' catalogs (sales-catalog-driven): sync_catalogs keeps each
-- account's catalogs, which get_products then matches against the products that take them.
create table sales_proposals (
  proposal_id text primary key,
  -- Whose proposal it is, as for media buys: another caller's is unknown to it.
  owner text not null,
  -- core/proposal.json as answered.
  proposal jsonb not null,
  -- What buying it needs beyond the answer: each allocation's bid for an auction pricing option.
  terms jsonb not null,
  currency text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null check (expires_at > created_at)
);
create index sales_proposals_expiry on sales_proposals (expires_at);

create table sales_catalogs (
  account_id text not null references sales_accounts (account_id),
  -- The buyer's own identifier (core/catalog.json catalog_id), unique within its account.
  catalog_id text not null,
  type text not null,
  -- core/catalog.json as synced (items inline, or a feed url).
  catalog jsonb not null,
  item_count integer not null check (item_count >= 0),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (account_id, catalog_id)
);
