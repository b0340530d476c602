-- Why: the raw brand.json and adagents.json last fetched for a domain, kept verbatim so users can
-- see exactly what the registry saw, and so a refetch is needed only when it is stale.
create table fetched_documents (
  domain text not null,
  kind text not null check (kind in ('brand_json', 'adagents_json')),
  url text not null,
  document jsonb not null,
  fetched_at timestamptz not null default now(),
  primary key (domain, kind)
);
