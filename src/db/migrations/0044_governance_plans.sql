-- Why: the governance agent is a budget authority, not a note. A buyer's campaign plans, the spend
-- each governed action (one buy, one activation) has committed against its plan, and every check
-- and outcome (the audit log a regulator reads) live here, so two sellers checking at once
-- serialize on the plan's row and cannot both spend the last dollar.
create table governance_plans (
  id uuid primary key,
  -- Whose plan (runtime/owner.ts): another caller reaches it only through a token issued for it.
  owner text not null,
  plan_id text not null,
  version integer not null,
  plan jsonb not null,
  -- SHA-256 of the plan's RFC 8785 form, base64url without padding: what a token attests to.
  plan_hash text not null,
  status text not null check (status in ('active', 'suspended', 'completed')),
  synced_at timestamptz not null,
  unique (owner, plan_id)
);

create table governance_actions (
  plan uuid not null references governance_plans (id) on delete cascade,
  action_id text not null,
  purchase_type text not null,
  status text not null check (status in ('active', 'suspended', 'completed')),
  -- Reserved by an approved purchase or modification check, set by the outcome reported.
  committed numeric not null default 0,
  -- The cumulative spend the seller last reported.
  delivered numeric not null default 0,
  check_count integer not null default 0,
  seller text,
  seller_reference text,
  -- The newest token issued for it, as get_plan_audit_logs names the action.
  governance_context text,
  created_at timestamptz not null,
  primary key (plan, action_id)
);

create table governance_log (
  id text primary key,
  -- The order entries were written in, which timestamps alone do not give (one clock tick, many checks).
  seq bigint generated always as identity,
  plan uuid not null references governance_plans (id) on delete cascade,
  type text not null check (type in ('check', 'outcome')),
  at timestamptz not null,
  -- The audit entry as get_plan_audit_logs answers it.
  entry jsonb not null
);
create index governance_log_by_plan on governance_log (plan, seq);

-- Governance approvals are signed with keys of their own (EdDSA), published beside the webhook keys.
alter table agent_signing_keys add column purpose text not null default 'webhook-signing';
