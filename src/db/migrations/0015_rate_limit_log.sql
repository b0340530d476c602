-- Why: rate limits are sliding: "N per period" must hold for every period-long span, which fixed
-- windows aligned to the clock do not (two requests at 4:59 and 5:01 pass a "1 per 5 minutes").
-- Each key keeps the times (epoch ms, sorted) of the requests counted within its last window;
-- the row lock of the one upsert per request serializes the instances sharing the database.
drop table rate_limit_counters;
create table rate_limit_log (
  key text primary key,
  hits bigint[] not null,
  -- Whether the last upsert counted its request (it returns the row it wrote).
  taken boolean not null,
  -- When the newest hit leaves its window; later, the row is only clutter.
  expires_at bigint not null
);
create index rate_limit_log_expires on rate_limit_log (expires_at);
