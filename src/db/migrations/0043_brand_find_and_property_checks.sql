-- Why: GET /api/brands/find ranks brands by name for the protocol's registry client. Its words are
-- matched as word prefixes through a full-text index of the names; whole names and name or domain
-- prefixes through indexes whose operator class serves LIKE 'prefix%' under any collation; so a
-- search reads the brands it finds, never the whole table.
create index brands_name_words on brands using gin (to_tsvector('simple', brand_name));
create index brands_name_prefix on brands (lower(brand_name) text_pattern_ops);
create index brands_domain_prefix on brands (domain text_pattern_ops);

-- Why: POST /api/properties/check reports how a list of domains stands against the registry; its
-- summary is kept for 7 days and read back by id (GET /api/properties/check/{id}). Only the counts
-- are kept, what the report's reader is answered: a report costs the same whatever the list's size.
create table property_check_reports (
  id uuid primary key,
  total integer not null,
  remove integer not null,
  modify integer not null,
  assess integer not null,
  ok integer not null,
  created_at timestamptz not null,
  expires_at timestamptz not null
);
create index property_check_reports_expiry on property_check_reports (expires_at);
