-- Why: feed readers page by event id, so an id must never become visible after a larger one.
-- Ids taken at insert time break that (a long transaction commits an id older than ones a reader
-- has already passed), so ids are assigned at commit instead: a deferred trigger takes the one
-- sequencer row's lock, which is held until the transaction has committed, and gives each new
-- event the next UUID v7. Commit order and id order are then the same, on every instance.
create table feed_sequencer (
  singleton boolean primary key default true check (singleton),
  -- The last id handed out, as its UUID v7 parts: unix milliseconds and the 12-bit counter.
  last_ms bigint not null,
  last_counter integer not null
);

-- Continue after any id already in the log (its counter taken as spent, so the next id moves on).
insert into feed_sequencer (last_ms, last_counter)
select coalesce(max(('x' || substr(replace(event_id::text, '-', ''), 1, 12))::bit(48)::bigint), 0), 4095
from registry_events;

-- Until commit a row carries a placeholder id; no other transaction can see it before it is replaced.
alter table registry_events alter column event_id set default gen_random_uuid();

create function registry_events_sequence() returns trigger language plpgsql as $$
declare
  now_ms bigint := floor(extract(epoch from clock_timestamp()) * 1000);
  ms bigint;
  counter integer;
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
  update registry_events
     set event_id = (lpad(to_hex(ms), 12, '0') || '7' || lpad(to_hex(counter), 3, '0')
                     || substr(replace(gen_random_uuid()::text, '-', ''), 17, 16))::uuid,
         created_at = to_timestamp(ms / 1000.0)
   where ctid = new.ctid;
  -- Delivered at commit, once per transaction however many events it wrote. One channel per
  -- schema, named by a hash so it is a plain identifier whatever the schema is called.
  perform pg_notify('ap_feed_' || left(md5(current_schema()), 16), '');
  return null;
end $$;

create constraint trigger registry_events_sequence after insert on registry_events
  deferrable initially deferred for each row execute function registry_events_sequence();

-- Filtered pages and the newest event of each type. (Age needs no index: created_at is the id's
-- millisecond, so the retention job deletes by id range.)
create index registry_events_type on registry_events (event_type, event_id);
