-- Why: the sales agent sells media buys (create_media_buy, update_media_buy, get_media_buys): a buy
-- of packages on the catalog's products, billed to one of the caller's accounts, moved through its
-- states by the buyer; every change is kept with the revision it made, who made it and when, so no
-- state change is ever lost and a buyer can audit its buy.
create table sales_media_buys (
  -- Keyset order of get_media_buys: the order buys were made in.
  seq bigint generated always as identity,
  media_buy_id text primary key,
  -- Whose buy it is, as for accounts: `org:<organization id>`, or `<kind>:<subject>` of a caller with none.
  owner text not null,
  account_id text not null references sales_accounts (account_id),
  status text not null check (status in ('pending_creatives', 'pending_start', 'active', 'paused', 'completed', 'rejected', 'canceled')),
  -- Bumped by exactly one per change, under the row's lock: an update names it for optimistic concurrency.
  revision integer not null check (revision >= 1),
  -- ISO 4217: every package's pricing option is in it.
  currency text not null,
  sandbox boolean not null,
  -- The flight; a start of `asap` is stored as the time the buy was confirmed.
  start_time timestamptz not null,
  end_time timestamptz not null check (end_time > start_time),
  -- What the buyer sent that is echoed as sent (brand, po_number, invoice_recipient...).
  details jsonb not null,
  -- core/media-buy.json's cancellation (canceled_at, canceled_by, reason) once canceled.
  cancellation jsonb,
  confirmed_at timestamptz not null,
  updated_at timestamptz not null
);
create index sales_media_buys_owner on sales_media_buys (owner, seq);

create table sales_media_buy_packages (
  package_id text primary key,
  media_buy_id text not null references sales_media_buys (media_buy_id),
  -- Order of the packages within the buy, as the buyer listed (then added) them.
  position integer not null,
  product_id text not null,
  pricing_option_id text not null,
  -- Money is kept exact; answered as JSON numbers.
  budget numeric not null check (budget > 0),
  bid_price numeric check (bid_price >= 0),
  -- Null: the buy's own flight.
  start_time timestamptz,
  end_time timestamptz,
  paused boolean not null default false,
  cancellation jsonb,
  -- The package's other terms as agreed (targeting_overlay, measurement_terms, format_ids, pacing...).
  details jsonb not null,
  unique (media_buy_id, position)
);

create table sales_media_buy_history (
  id bigint generated always as identity primary key,
  media_buy_id text not null references sales_media_buys (media_buy_id),
  -- The buy's revision after the change; one update may record several entries of one revision.
  revision integer not null,
  -- get_media_buys' history actions: created, paused, resumed, canceled, updated_budget, ...
  action text not null,
  package_id text,
  summary text not null,
  -- The buy's status after the change.
  status text not null,
  -- `<kind>:<subject>` of the principal that made it.
  actor text not null,
  at timestamptz not null
);
create index sales_media_buy_history_buy on sales_media_buy_history (media_buy_id, id);
