-- Why: the brand agent answers from memory (brand records for get_brand_identity, the exclusive
-- offerings held for get_rights), so a change to what those answers derive from must reach every
-- instance when it commits, as credentials do (0016): each table signals its channel, named after
-- the table's own schema, and an instance empties that cache on it.
create function brands_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('ap_brands_' || left(md5(TG_TABLE_SCHEMA), 16), '');
  return null;
end $$;

create trigger brands_changed after insert or update or delete on brands
  for each statement execute function brands_changed();
create trigger brand_aliases_changed after insert or update or delete on brand_aliases
  for each statement execute function brands_changed();

create function brand_rights_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('ap_rights_' || left(md5(TG_TABLE_SCHEMA), 16), '');
  return null;
end $$;

create trigger brand_rights_grants_changed after insert or update or delete on brand_rights_grants
  for each statement execute function brand_rights_changed();
