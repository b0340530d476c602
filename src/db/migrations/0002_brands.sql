-- Why: brands are the registry's canonical brand records. A brand is community-sourced (saved
-- through the API, revisioned), enriched (from the domain's public metadata) or authoritative
-- (projected from the house's brand.json, which the API may not edit). Other domains of a brand
-- (declared by its house) resolve to it through brand_aliases.
create table brands (
  id uuid primary key,
  domain text not null unique,
  brand_name text not null,
  brand_key text,
  keller_type text,
  house_domain text,
  source text not null check (source in ('brand_json', 'enriched', 'community')),
  manifest jsonb not null default '{}'::jsonb,
  revision integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index brands_house_domain on brands (house_domain);
create index brands_source on brands (source, domain);

create table brand_aliases (
  domain text primary key,
  brand_id uuid not null references brands (id) on delete cascade
);

-- Each revision keeps the whole record as it was, so history and rollback need nothing else.
create table brand_revisions (
  brand_id uuid not null references brands (id) on delete cascade,
  revision_number integer not null,
  editor_name text not null,
  edit_summary text not null,
  source text not null,
  is_rollback boolean not null default false,
  rolled_back_to integer,
  snapshot jsonb not null,
  created_at timestamptz not null default now(),
  primary key (brand_id, revision_number)
);
