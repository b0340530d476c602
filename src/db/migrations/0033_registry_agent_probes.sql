-- Why: the agent catalog probes each enrolled agent (issue 19, section 2): health, its
-- get_ap_capabilities document (cached, refreshed within 24 h) and a compliance check of the
-- protocol basics, which earn or lose the verified badge. One row per enrolled agent, made with
-- the enrollment and gone with it; the row is also the probe queue (claimed with SKIP LOCKED).
create table registry_agent_probes (
  agent_url text primary key references registry_agents (agent_url) on delete cascade,
  -- The queue: due when next_probe_at has passed and no live lease holds it.
  next_probe_at timestamptz not null,
  claimed_until timestamptz,
  -- Health of the last probe (null before the first).
  probed_at timestamptz,
  reachable boolean,
  latency_ms integer check (latency_ms >= 0),
  -- 'mcp' and/or 'a2a': the protocols the agent answered on.
  protocols text[] not null default '{}',
  -- Why the last probe could not reach it (a fetch failure's reason and message).
  health_error text,
  -- The agent's own get_ap_capabilities answer, kept as it came, and when it was fetched.
  capabilities jsonb,
  capabilities_fetched_at timestamptz,
  -- The last compliance check: [{name, passed, message}], and its overall status.
  compliance jsonb not null default '[]',
  compliance_status text not null default 'unknown' check (compliance_status in ('passing', 'degraded', 'failing', 'unknown')),
  -- The verified badge: held or not, for which role (enums/ap-protocol.json) and specialisms.
  verified boolean not null default false,
  verified_role text,
  verified_specialisms text[] not null default '{}',
  verified_at timestamptz,
  -- Why the badge was lost (or not earned), as the last probe found.
  verification_reason text
);
create index registry_agent_probes_due on registry_agent_probes (next_probe_at);
