-- Why: a seller whose buyer put an account under campaign governance (sync_governance) must call the
-- buyer's governance agents before it commits spend on that account, and keep the tokens it
-- accepted and was issued, as the protocol asks sellers to (governance/campaign, seller enforcement).

-- The sales agent's sandbox test controller seeds plans too (seed_plan), with the deployment's
-- governance agent.
alter table sales_test_seeds drop constraint sales_test_seeds_kind_check;
alter table sales_test_seeds add constraint sales_test_seeds_kind_check
  check (kind in ('creative', 'media_buy', 'product', 'pricing_option', 'creative_format', 'plan'));

-- The governance agents registered for an account, replaced whole by each sync.
create table seller_governance_agents (
  -- Which agent of the deployment sells (sales, signals) and whose account it is (runtime/owner.ts).
  tenant text not null,
  owner text not null,
  account_id text not null,
  position integer not null,
  url text not null,
  -- The credential the seller presents to the governance agent, sealed with AP_SIGNING_KEY_SECRET when one is set.
  credentials text not null,
  categories jsonb,
  synced_at timestamptz not null,
  primary key (tenant, owner, account_id, position)
);

-- The governed actions (a media buy, an activation) and where their governance stands: the agent
-- that approved them, their plan, the latest execution token, and when the agent expects a report.
create table seller_governed_actions (
  tenant text not null,
  action_id text not null,
  owner text not null,
  account_id text not null,
  plan_id text not null,
  agent_url text not null,
  governance_context text not null,
  next_check_at timestamptz,
  created_at timestamptz not null,
  -- What the last delivery report said was spent and up to when: the next reports the period after
  -- it, and an unchanged action is not reported again before the agent's next_check.
  reported_spend numeric,
  reported_until timestamptz,
  -- 'approved' until a delivery check is denied ('halted': the seller stopped delivery).
  state text not null default 'approved',
  primary key (tenant, action_id)
);
create index seller_governed_actions_due on seller_governed_actions (tenant, next_check_at) where state = 'approved';

-- Every governance token accepted (the buyer's intent token) or issued (the seller's own
-- execution checks), by jti: a token is used once, and the seller's record can be reconciled
-- against the governance agent's audit log.
create table seller_governance_tokens (
  jti text primary key,
  tenant text not null,
  action_id text not null,
  iss text not null,
  aud text,
  sub text not null,
  phase text not null,
  outcome text not null,
  token text not null,
  accepted_at timestamptz not null
);
create index seller_governance_tokens_by_action on seller_governance_tokens (tenant, action_id);
