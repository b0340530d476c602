-- Why: the sales agent makes proposals (sales-proposal-mode): get_products answers a media plan
-- over the products a brief matches, and create_media_buy with its proposal_id buys it while the
-- proposal is valid; the seller keeps its own proposal registry, since each get_products call is
-- self-contained. And it takes buyers' catalogs (sales-catalog-driven): sync_catalogs keeps each
-- account's catalogs, which get_products then matches against the products that take them; with
-- the conversions it tracks for them: sync_event_sources declares an account's event sources,
-- log_event records their events (once per event_id), provide_performance_feedback the buyer's
-- view of how a buy performed.
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

create table sales_event_sources (
  account_id text not null references sales_accounts (account_id),
  event_source_id text not null,
  -- The request's event source as synced (name, event_types, allowed_domains...).
  source jsonb not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (account_id, event_source_id)
);

create table sales_events (
  account_id text not null,
  event_source_id text not null,
  event_id text not null,
  event_type text not null,
  event_time timestamptz not null,
  -- core/event.json as logged.
  event jsonb not null,
  received_at timestamptz not null,
  -- An event is counted once, however often it is sent (the buyer's retries, a pixel and a server both reporting it).
  primary key (account_id, event_source_id, event_id),
  foreign key (account_id, event_source_id) references sales_event_sources (account_id, event_source_id) on delete cascade
);

create table sales_performance_feedback (
  seq bigint generated always as identity primary key,
  media_buy_id text not null references sales_media_buys (media_buy_id),
  package_id text,
  creative_id text,
  period_start timestamptz not null,
  period_end timestamptz not null,
  performance_index numeric not null check (performance_index >= 0),
  metric_type text not null,
  feedback_source text not null,
  received_at timestamptz not null
);
create index sales_performance_feedback_buy on sales_performance_feedback (media_buy_id, seq);
