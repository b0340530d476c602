-- Why: long-running agent tasks are accepted at once and run by whichever instance claims them,
-- so a restart between accepting a task and finishing it loses nothing; their webhooks go through
-- an outbox written in the same transaction as the result, and are retried until delivered.
create table agent_tasks (
  task_id uuid primary key,
  tenant text not null,
  principal text not null,
  task text not null,
  arguments jsonb not null,
  status text not null check (status in ('submitted', 'working', 'completed', 'failed')),
  result jsonb,
  error jsonb,
  -- A working task whose lease has passed belongs to an instance that stopped; another takes it.
  lease_until timestamptz,
  attempts integer not null default 0,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index agent_tasks_runnable on agent_tasks (created_at) where status in ('submitted', 'working');

create table webhook_deliveries (
  id uuid primary key,
  tenant text not null,
  task_id uuid not null,
  url text not null,
  -- Unique per event and the same on every retry, so the receiver can drop duplicates.
  idempotency_key uuid not null unique,
  payload jsonb not null,
  state text not null check (state in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null,
  last_error text,
  created_at timestamptz not null,
  delivered_at timestamptz
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending';
