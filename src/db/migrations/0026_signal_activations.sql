-- Why: activate_signal puts a signal live on a deployment target for a buyer. Agent targets are
-- live at once; platform targets take the platform's time, so the activation is recorded pending
-- with when it falls due, and the signals agent's activation pass makes it live (and finishes the
-- call's task, with its webhook) in one transaction. get_signals reads these rows to say, per
-- target, whether a signal is live for the caller and with which activation key.
create table signal_activations (
  tenant text not null,
  -- Whose activation: the caller's organization, else the caller (as sales accounts are owned).
  owner text not null,
  signal_agent_segment_id text not null,
  -- The destination's identity: platform or agent URL, and the account on it.
  target text not null,
  -- core/destination.json as the caller named it.
  destination jsonb not null,
  -- core/activation-key.json once live; null while pending.
  activation_key jsonb,
  -- The call's task while the activation is pending (null for one that was live at once).
  task_id text,
  -- The caller that asked (kind and subject), whose task the pass completes.
  caller jsonb not null,
  -- Where in its call's destinations it was named, so the task's result keeps the caller's order.
  position integer not null,
  requested_at timestamptz not null,
  -- When a pending activation completes; null once live.
  due_at timestamptz,
  deployed_at timestamptz,
  primary key (tenant, owner, signal_agent_segment_id, target),
  check ((deployed_at is null) = (activation_key is null)),
  check (deployed_at is not null or due_at is not null)
);
-- The activation pass reads what is due.
create index signal_activations_due on signal_activations (due_at) where deployed_at is null;
-- A task's activations, to tell when the last one went live.
create index signal_activations_task on signal_activations (tenant, task_id) where task_id is not null;
