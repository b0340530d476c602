-- Why: a mutating agent task runs once per idempotency key, across retries, instances and
-- restarts. The record is claimed before the task runs (so concurrent duplicates find it), holds
-- the first successful response for replay, and outlives the replay window as a tombstone, so a
-- late retry is told its key expired instead of running the task again.
create table idempotency_records (
  tenant text not null,
  -- Who asked (`api_key:<id>` or `user:<id>`) and for which account: keys are scoped to both.
  principal text not null,
  account text not null,
  idempotency_key uuid not null,
  task text not null,
  payload_hash text not null,
  state text not null check (state in ('running', 'succeeded')),
  response jsonb,
  created_at timestamptz not null,
  primary key (tenant, principal, account, idempotency_key)
);
create index idempotency_records_created on idempotency_records (created_at);
