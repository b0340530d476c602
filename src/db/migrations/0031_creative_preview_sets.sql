-- Why: the previews of one preview_creative or build_creative call are stored as one row (a set)
-- instead of a row each. On PGlite every row costs about 20 µs (heap and two index entries), which
-- was most of what a batch of previews cost beyond its first: one row per call is what lets a batch
-- share that work. A set keeps each manifest once, however many variants render it. Snapshots move
-- to their own table, written only when one is rendered. Rows from before become sets of one, under
-- their own key (position 0), so the URLs already answered keep working until they expire.
create table creative_preview_sets (
  set_key text primary key,
  -- The caller that asked, for logs and the operator; previews are public by their unguessable key.
  principal text not null,
  -- JSON text {manifests: [...], previews: [{format, manifest (an index into manifests), macros,
  -- width, height}]}; a preview moved from before may carry the page it was recorded with (html).
  previews text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null
);
-- Expired sets answer 410 until pruned (a week after they expire); the pruning reads this.
create index creative_preview_sets_expiry on creative_preview_sets (expires_at);

create table creative_preview_snapshots (
  set_key text not null references creative_preview_sets on delete cascade,
  position integer not null check (position >= 0),
  png bytea not null,
  primary key (set_key, position)
);

insert into creative_preview_sets (set_key, principal, previews, created_at, expires_at)
select
  preview_key,
  principal,
  jsonb_build_object(
    'manifests', case when manifest is null then '[]'::jsonb else jsonb_build_array(manifest) end,
    'previews', jsonb_build_array(jsonb_strip_nulls(jsonb_build_object(
      'html', html,
      'format', format,
      'manifest', case when manifest is null then null else 0 end,
      'macros', macros,
      'width', width,
      'height', height
    )))
  )::text,
  created_at,
  expires_at
from (
  select
    preview_key, principal, html, width, height, created_at, expires_at,
    coalesce(source::jsonb ->> 'format', snapshot_source -> 'format_id' ->> 'id') as format,
    coalesce(source::jsonb -> 'manifest', snapshot_source -> 'manifest') as manifest,
    coalesce(source::jsonb -> 'macros', snapshot_source -> 'macros') as macros
  from creative_previews
) as moved;

insert into creative_preview_snapshots (set_key, position, png)
select preview_key, 0, png from creative_previews where png is not null;

drop table creative_previews;
