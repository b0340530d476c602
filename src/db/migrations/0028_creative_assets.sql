-- Why: build_creative answers manifests whose generated images this server hosts (the issue:
-- stored and served with stable URLs). An asset is named by the SHA-256 of its bytes, so the same
-- build gives the same URL on every instance, a second build of it stores nothing new, and the
-- URL can be cached forever. Manifests synced elsewhere keep naming these URLs: none is pruned.
create table creative_assets (
  sha256 text primary key check (sha256 ~ '^[0-9a-f]{64}$'),
  content_type text not null,
  bytes bytea not null,
  created_at timestamptz not null
);
