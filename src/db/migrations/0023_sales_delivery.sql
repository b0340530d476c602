-- Why: the sales agent reports delivery of its media buys (get_media_buy_delivery), simulated from
-- each buy's packages, flight and history. The compliance test controller adjusts it: it adds
-- delivery on top of the simulation (simulate_delivery: impressions, clicks, conversions and spend
-- as reported, which never counts against the budget) or spends a buy to a share of its budget
-- (simulate_budget_spend). Each adjustment is kept with its time, so a report of any period sees it
-- from that time on.
create table sales_delivery_adjustments (
  id bigint generated always as identity primary key,
  media_buy_id text not null references sales_media_buys (media_buy_id),
  kind text not null check (kind in ('delivery', 'budget_spend')),
  impressions bigint not null default 0 check (impressions >= 0),
  clicks bigint not null default 0 check (clicks >= 0),
  conversions bigint not null default 0 check (conversions >= 0),
  -- In the buy's currency, kept exact.
  reported_spend numeric not null default 0 check (reported_spend >= 0),
  -- budget_spend only: the share of the budget (0-100) spent by `at`.
  spend_percentage numeric check (spend_percentage >= 0 and spend_percentage <= 100),
  at timestamptz not null,
  check ((kind = 'budget_spend') = (spend_percentage is not null))
);
create index sales_delivery_adjustments_buy on sales_delivery_adjustments (media_buy_id, id);
