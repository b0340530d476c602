-- Why: a sales agent's inventory profile (agent search, registry-api spec section 2) shows the
-- delivery types, formats and channels of its products, which only the agent knows: probing asks
-- for its wholesale catalog (get_products, buying_mode wholesale) when it refreshes the
-- capabilities, and keeps a summary of it here.
alter table registry_agent_probes add column inventory jsonb;
