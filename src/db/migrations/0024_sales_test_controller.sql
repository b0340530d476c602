-- Why: the sales agent's sandbox test controller (comply_test_controller) lets a compliance harness
-- shape a sandbox account's next create_media_buy (a directive consumed exactly once), seed
-- creatives and media buys under ids it names (replaying a seed must tell the same fixture from a
-- different one), and force creatives' statuses, which are then kept with who and when as
-- accounts' and media buys' changes already are.
create table sales_forced_create_arms (
  -- One directive per sandbox account: a newer one replaces it.
  account_id text primary key references sales_accounts (account_id),
  arm text not null check (arm in ('submitted', 'input-required')),
  -- The task id the submitted arm answers with (the caller's own, up to 128 characters).
  task_id text check (length(task_id) between 1 and 128),
  message text,
  created_at timestamptz not null,
  check ((arm = 'submitted') = (task_id is not null))
);

create table sales_test_seeds (
  kind text not null check (kind in ('creative', 'media_buy')),
  account_id text not null references sales_accounts (account_id),
  entity_id text not null,
  -- The fixture as seeded: the same again is a no-op, a different one is refused.
  fixture jsonb not null,
  seeded_at timestamptz not null,
  primary key (kind, account_id, entity_id)
);

create table sales_creative_changes (
  id bigint generated always as identity primary key,
  account_id text not null,
  creative_id text not null,
  -- seeded, status
  change text not null,
  -- The creative's status after the change.
  status text not null,
  -- Why, when the seller said (a rejection's reason).
  reason text,
  -- `<kind>:<subject>` of the principal that made it, or the seller's own actor (`test-controller`).
  changed_by text not null,
  changed_at timestamptz not null,
  foreign key (account_id, creative_id) references sales_creatives (account_id, creative_id)
);
create index sales_creative_changes_creative on sales_creative_changes (account_id, creative_id, id);
