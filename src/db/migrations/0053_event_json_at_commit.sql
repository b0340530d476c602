-- Why: every read of the feed built each event's JSON again (json_build_object and to_char per row:
-- 30 of the 46 ms a 10,000-event page took on PostgreSQL), for an event written once and read by
-- every mirror and poller. The commit-time trigger that gives an event its id and time now writes
-- its JSON too, with the key order and time format the readers built (core/registry-event.json).
-- Rows written before stay null and are built on read until retention removes them.
alter table registry_events add column json text;

create or replace function registry_events_sequence() returns trigger language plpgsql as $$
declare
  now_ms bigint := floor(extract(epoch from clock_timestamp()) * 1000);
  ms bigint;
  counter integer;
  id uuid;
  at timestamptz;
begin
  -- The row lock serializes committing writers until each has committed (read committed re-reads).
  update feed_sequencer set last_ms = last_ms where singleton returning last_ms, last_counter into ms, counter;
  if now_ms > ms then
    ms := now_ms;
    counter := 0;
  elsif counter < 4095 then
    counter := counter + 1;
  else
    -- More than 4096 ids in one millisecond, or a clock that went back: borrow the next millisecond.
    ms := ms + 1;
    counter := 0;
  end if;
  update feed_sequencer set last_ms = ms, last_counter = counter where singleton;
  -- 48-bit milliseconds, version 7, 12-bit counter, then variant and random bits from a v4 UUID.
  id := (lpad(to_hex(ms), 12, '0') || '7' || lpad(to_hex(counter), 3, '0')
         || substr(replace(gen_random_uuid()::text, '-', ''), 17, 16))::uuid;
  at := to_timestamp(ms / 1000.0);
  update registry_events
     set event_id = id,
         created_at = at,
         json = json_build_object(
           'event_id', id, 'event_type', new.event_type, 'entity_type', new.entity_type,
           'entity_id', new.entity_id, 'payload', new.payload, 'actor', new.actor,
           'created_at', to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
   where ctid = new.ctid;
  -- Delivered at commit, once per transaction however many events it wrote. One channel per
  -- schema, named by a hash so it is a plain identifier whatever the schema is called.
  perform pg_notify('ap_feed_' || left(md5(current_schema()), 16), '');
  return null;
end $$;
