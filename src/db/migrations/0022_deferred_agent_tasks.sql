-- Why: a task may now go asynchronous only when its handler decides to (a guaranteed buy that
-- waits for the seller's approval), and a sandbox caller may name the task id it will be answered
-- with (comply_test_controller's forced arm), so ids are text, unique per caller rather than
-- globally. A held task waits for an outside completion instead of a worker. Webhooks that report
-- something other than a task (delivery reports) have no task.
alter table agent_tasks drop constraint agent_tasks_pkey;
alter table agent_tasks alter column task_id type text;
alter table agent_tasks add primary key (tenant, principal, task_id);
alter table agent_tasks add column held boolean not null default false;
drop index agent_tasks_runnable;
create index agent_tasks_runnable on agent_tasks (created_at) where status in ('submitted', 'working') and not held;
alter table webhook_deliveries alter column task_id type text;
alter table webhook_deliveries alter column task_id drop not null;
