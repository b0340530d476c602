-- Why: long-running agent tasks run as the caller who started them (organization included), report
-- progress while they work, can be canceled or wait for input, and give up after a capped number of
-- attempts. Idempotency records are now written in the same transaction as the task's effect, so
-- a claim that is still "running" no longer exists; any left by the previous runtime are dropped
-- (their process is gone, and their effect, if any, was never recorded as done).
alter table agent_tasks drop constraint agent_tasks_status_check;
alter table agent_tasks add constraint agent_tasks_status_check
  check (status in ('submitted', 'working', 'input-required', 'completed', 'failed', 'canceled'));
-- The principal as the accepting call saw it (kind, subject, display name, organization standing).
alter table agent_tasks add column caller jsonb;
-- `{percentage?, current_step?, step_number?, total_steps?}`, as the handler last reported it.
alter table agent_tasks add column progress jsonb;
alter table agent_tasks add column completed_at timestamptz;
delete from idempotency_records where state = 'running';
