-- Why: the brand agent licenses its roster's rights (acquire_rights). A grant is the buyer's
-- binding licence: its terms as agreed, the campaign it covers, where revocations and the holder's
-- decision are sent, and the hash of its generation credential (the key itself is answered once).
create table brand_rights_grants (
  grant_id text primary key,
  -- The roster's offering (get_rights' rights_id).
  offering_id text not null,
  -- Whose grant (runtime/owner.ts): no other caller reads or changes it.
  owner text not null,
  brand_id text not null,
  status text not null check (status in ('acquired', 'pending_approval', 'rejected', 'revoked', 'cancelled')),
  -- Whether it holds its offering exclusively while acquired or pending.
  exclusive boolean not null,
  terms jsonb not null,
  campaign jsonb not null,
  buyer jsonb not null,
  revocation_webhook jsonb not null,
  push_notification_config jsonb,
  key_hash bytea,
  -- Paused by its buyer (update_rights): its credential is suspended and no creative is approved.
  paused boolean not null default false,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index brand_rights_grants_by_offering on brand_rights_grants (offering_id, status);
create index brand_rights_grants_by_owner on brand_rights_grants (owner, created_at);
