-- Why: look-alike domains (UTS #39 confusables: Cyrillic а for a, 1 for l, rn for m) are held for
-- an operator's review instead of being registered silently, when they resemble a brand on the
-- operator's deny list or a domain already registered.
--
-- domain_skeletons keeps the skeleton of every registered domain (brands, brand aliases,
-- properties), so a submission is compared with all of them in one indexed lookup. SQL cannot
-- compute skeletons: saves write them in their own transaction, and a start-up backfill
-- (backfillSkeletons) fills domains saved before this step and recomputes rows whose `version`
-- (the confusables data they were computed with) is not the running one.
create table domain_skeletons (
  domain text primary key,
  skeleton text not null,
  version text not null
);
create index domain_skeletons_skeleton on domain_skeletons (skeleton);

-- Saves held for review: the whole save body, who sent it, why it was held and what became of it.
-- An approved review also lets later saves of the same domain through.
create table homograph_reviews (
  id uuid primary key,
  kind text not null check (kind in ('brand', 'property')),
  domain text not null,
  payload jsonb not null,
  organization_id uuid references organizations (id) on delete set null,
  submitted_by text not null,
  submitter jsonb not null,
  reason text not null check (reason in ('deny_list', 'registered_brand', 'registered_property')),
  similar_to text not null,
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  decided_by text,
  decided_at timestamptz,
  note text,
  created_at timestamptz not null default now(),
  check ((status = 'pending') = (decided_at is null))
);
create index homograph_reviews_queue on homograph_reviews (status, created_at desc, id desc);
create index homograph_reviews_domain on homograph_reviews (domain, status);
