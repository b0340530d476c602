-- Why: the legacy POST /api/brands/discovered/community queues a brand for an administrator as a
-- held save is queued, so both share one review queue, one admin flow and one approval path.
-- `source` tells them apart: `save` (a save held because its domain looks like another) or
-- `community_submission` (queued because that endpoint always asks for a review). A submission
-- that looks like nothing has no look-alike reason, so `reason` and `similar_to` become optional
-- for it and stay required for held saves.
alter table homograph_reviews add column source text not null default 'save'
  check (source in ('save', 'community_submission'));
alter table homograph_reviews alter column reason drop not null;
alter table homograph_reviews alter column similar_to drop not null;
alter table homograph_reviews add constraint homograph_reviews_reason_given
  check ((reason is null) = (similar_to is null) and (source = 'community_submission' or reason is not null));
