-- Why: the creative agent keeps a creative library of its own (sync_creatives, list_creatives),
-- apart from the sales agent's: it has no accounts, so each library is the caller's organization's
-- (else the caller's) and named by the account reference the requests carry. Creatives are
-- archived, never deleted.
create table creative_library (
  -- Order they were first synced in; ties of list_creatives' sorts break on it.
  seq bigint generated always as identity,
  -- Whose library: the caller's organization (`org:<id>`), else the caller.
  owner text not null,
  -- The request's account reference as canonical JSON: {"account_id": ...}, or the natural key
  -- {"brand": {...}, "operator": ..., "sandbox": ...}. Two organizations may use the same one.
  account_key text not null,
  -- The buyer's own id: unique within the library.
  creative_id text not null,
  name text not null,
  -- core/format-id.json as sent, and `<agent key> <id>` to filter on (one text for every spelling of the agent's URL).
  format_id jsonb not null,
  format_key text not null,
  assets jsonb not null,
  tags text[] not null,
  status text not null check (status in ('processing', 'pending_review', 'approved', 'rejected', 'archived')),
  -- The creative's other fields as sent (inputs, industry_identifiers, provenance...).
  details jsonb not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (owner, account_key, creative_id)
);
create index creative_library_owner on creative_library (owner, seq);
