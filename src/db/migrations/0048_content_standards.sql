-- Why: a buyer's content standards live with the governance agent (content-standards/*.json):
-- where they apply, the policies they enforce (bespoke ones, and the registry's as resolved when
-- saved, so a standard keeps the version it was written against) and its calibration exemplars.
create table governance_content_standards (
  standards_id text primary key,
  -- Whose standards (runtime/owner.ts): no other caller reads or changes them.
  owner text not null,
  -- name, scope, policies, calibration_exemplars and registry_policy_ids, as saved.
  definition jsonb not null,
  -- Each update makes a new version (update-content-standards-request.json).
  version integer not null default 1,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  seq bigint generated always as identity
);
create index governance_content_standards_by_owner on governance_content_standards (owner, seq);
