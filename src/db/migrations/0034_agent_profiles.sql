-- Why: `agent.profile_updated` (registry-api spec section 6) is emitted when an agent's inventory
-- profile changes. Profiles are derived in every instance's memory from the authorization graph
-- and the enrolled agents; this table holds the profile as last published to the feed, so the
-- instance that publishes (one at a time) emits an event only for a real change, once.
create table agent_profiles (
  agent_url text primary key,
  -- The profile as published (registry-event.json agentProfilePayload, without changed_fields).
  profile jsonb not null,
  -- A digest of the profile less its updated_at: what a change is judged by.
  digest text not null,
  -- Whether the agent was enrolled then: removing an enrolled agent is the catalog's own event.
  enrolled boolean not null,
  published_at timestamptz not null
);
