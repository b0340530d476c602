-- Why: every instance keeps the credentials it has verified in memory (an API key's row, a token's
-- grant, user and memberships), so a change to any of them must reach every instance when it
-- commits. These triggers NOTIFY one channel per schema; an instance empties its cache on it, and
-- checks that it has heard every earlier notification before it answers from the cache.
create function credentials_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('ap_auth_' || left(md5(current_schema()), 16), '');
  return null;
end $$;

-- `last_used_at` moves once a minute per busy key and changes nothing a caller is granted.
create trigger api_keys_changed after update on api_keys for each row
  when (old.revoked_at is distinct from new.revoked_at or old.key_hash is distinct from new.key_hash
        or old.role is distinct from new.role or old.organization_id is distinct from new.organization_id
        or old.name is distinct from new.name or old.prefix is distinct from new.prefix)
  execute function credentials_changed();
create trigger api_keys_deleted after delete on api_keys for each statement execute function credentials_changed();

create trigger organizations_changed after update on organizations for each row
  when (old.slug is distinct from new.slug or old.api_tier is distinct from new.api_tier or old.is_admin is distinct from new.is_admin)
  execute function credentials_changed();
create trigger organizations_deleted after delete on organizations for each statement execute function credentials_changed();

create trigger memberships_changed after insert or update or delete on memberships for each statement execute function credentials_changed();

-- An external issuer's users are upserted as they are seen; an upsert that changes nothing is silent.
create trigger users_changed after update on users for each row
  when ((old.*) is distinct from (new.*))
  execute function credentials_changed();
create trigger users_deleted after delete on users for each statement execute function credentials_changed();

-- Only grants: every other OAuth record (sessions, codes, interactions) churns with each sign-in.
create trigger oauth_grants_changed after update or delete on oauth_records for each row
  when (old.model = 'Grant')
  execute function credentials_changed();
