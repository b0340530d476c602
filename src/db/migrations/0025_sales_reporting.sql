-- Why: a buyer may ask the sales agent to push delivery reports of a media buy to its webhook
-- (create_media_buy or update_media_buy `reporting_webhook`): one report per elapsed period of the
-- chosen frequency, numbered from 1, then a final one when the buy finishes. The configuration is
-- kept with the buy, and so is how far its reports went, so that a report is queued in the same
-- transaction that moves this row on: a crash or a second instance never sends one twice or skips one.
create table sales_reporting_webhooks (
  media_buy_id text primary key references sales_media_buys (media_buy_id),
  -- core/reporting-webhook.json as accepted: always signed with RFC 9421, so no credentials.
  url text not null,
  -- The buyer's token, echoed in every report.
  token text,
  reporting_frequency text not null check (reporting_frequency in ('hourly', 'daily', 'monthly')),
  -- Null: every metric the buy reports.
  requested_metrics jsonb,
  -- The last sequence_number sent (0: none yet); it goes on across changes of the configuration.
  sequence_number integer not null default 0 check (sequence_number >= 0),
  -- The end of the last period a scheduled report covered; null before the first.
  reported_until timestamptz,
  final_sent boolean not null default false,
  updated_at timestamptz not null
);
-- The reporting pass reads the ones still to finish.
create index sales_reporting_webhooks_open on sales_reporting_webhooks (media_buy_id) where not final_sent;
