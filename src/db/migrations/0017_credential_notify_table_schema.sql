-- Why: 0016 named the NOTIFY channel after `current_schema()`, the writing session's search path.
-- The app's sessions point it at the app's schema, but an operator revoking a key from psql with
-- the default path signalled another schema's channel (and with an empty path the update failed),
-- so instances kept answering the revoked key from memory. The table's own schema is the one the
-- instances listen for, whoever writes.
create or replace function credentials_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('ap_auth_' || left(md5(TG_TABLE_SCHEMA), 16), '');
  return null;
end $$;
