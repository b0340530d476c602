-- Why: preview_creative answers iframe-embeddable URLs (agent-tasks spec section 4, output_format
-- url) that this server hosts until their expires_at and answers 410 after. Any instance may be
-- asked for a preview another made, so previews live in the database: the page as rendered, and
-- what a display format's PNG snapshot is rendered from (once, on the call or at its first fetch).
create table creative_previews (
  preview_key text primary key,
  -- The caller that asked, for logs and the operator; previews are public by their unguessable key.
  principal text not null,
  html text not null,
  width integer not null check (width > 0),
  height integer not null check (height > 0),
  -- What a PNG snapshot is made from ({format_id, manifest, macros, size}); null for formats with none.
  snapshot_source jsonb,
  -- The snapshot once rendered.
  png bytea,
  created_at timestamptz not null,
  expires_at timestamptz not null
);
-- Expired previews answer 410 until pruned (a week after they expire); the pruning reads this.
create index creative_previews_expiry on creative_previews (expires_at);
