-- Why: a hosted preview is kept as what it is rendered from (its format, manifest and macros, as
-- JSON text) rather than as its page and a jsonb copy of the same: the page is rendered when it is
-- opened (a few tens of microseconds, the same bytes every time), and storing a tenth of the data
-- as plain text made a batch of previews about half as costly to record on PGlite. Rows written
-- before keep their page and snapshot source and are served as they are until pruned.
alter table creative_previews alter column html drop not null;
alter table creative_previews add column source text;
alter table creative_previews add constraint creative_previews_renderable check (html is not null or source is not null);
