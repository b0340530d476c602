-- Why: rate limits must hold across every instance sharing the database, so their counters live
-- here, one row per key and fixed window; expired windows are deleted as they are passed.
create table rate_limit_counters (
  key text not null,
  window_start timestamptz not null,
  hits integer not null,
  primary key (key, window_start)
);
create index rate_limit_counters_window on rate_limit_counters (window_start);
