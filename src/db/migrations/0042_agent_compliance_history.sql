-- Why: the registry's client reads an agent's compliance as a history, not only its last probe
-- (issue 34: GET /api/registry/agents/{url}/compliance, the feed's compliance summary): since when
-- the current status holds (its streak), when every check last passed and when one last failed,
-- the tasks the agent listed (its tools count), and the status changes themselves. Rows of
-- probed agents take their last probe as the start of their current status.
alter table registry_agent_probes add column compliance_status_since timestamptz;
alter table registry_agent_probes add column last_passed_at timestamptz;
alter table registry_agent_probes add column last_failed_at timestamptz;
alter table registry_agent_probes add column tasks text[];
update registry_agent_probes set
  compliance_status_since = probed_at,
  last_passed_at = case when compliance_status = 'passing' then probed_at end,
  last_failed_at = case when compliance_status in ('degraded', 'failing') then probed_at end
where probed_at is not null;

-- Each change of an agent's checks, as the feed's agent.compliance_changed announces it, kept for
-- every agent whatever its visibility (the feed shows only the public catalog's) and gone with it.
-- record.ts keeps the latest 50 per agent.
create table registry_agent_compliance_changes (
  id bigint generated always as identity primary key,
  agent_url text not null references registry_agents (agent_url) on delete cascade,
  changed_at timestamptz not null,
  previous_status text not null,
  current_status text not null,
  headline text,
  checks_passing integer not null check (checks_passing >= 0),
  checks_total integer not null check (checks_total >= 0)
);
create index registry_agent_compliance_changes_agent on registry_agent_compliance_changes (agent_url, id);
