-- Why: every registry change is recorded as an event, appended in the same transaction as the
-- change itself, so the change feed can never disagree with the tables it describes.
create table registry_events (
  event_id uuid primary key,
  event_type text not null,
  entity_type text not null,
  entity_id text not null,
  payload jsonb not null,
  actor text not null,
  created_at timestamptz not null default now()
);
create index registry_events_entity on registry_events (entity_type, entity_id);
