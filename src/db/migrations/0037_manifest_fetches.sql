-- Why: the manifest-refs lookup says where a domain's adagents.json and brand.json live and how the
-- last fetch of each went. The crawl queue kept only the adagents.json outcome, and nothing kept the
-- authoritative_location and house hops walked to reach a document; the crawler records both here.
create table manifest_fetches (
  domain text not null,
  kind text not null check (kind in ('brand_json', 'adagents_json')),
  outcome text not null check (outcome in ('found', 'absent', 'invalid', 'transient')),
  -- Where the fetch stopped: the document that counts, or the address that failed.
  url text not null,
  -- Every address read, in order, ending with url.
  chain text[] not null,
  reason text,
  fetched_at timestamptz not null,
  primary key (domain, kind)
);

-- What earlier crawls left: the adagents.json outcome of each crawled domain, and each stored brand.json.
insert into manifest_fetches (domain, kind, outcome, url, chain, reason, fetched_at)
select t.domain, 'adagents_json', t.last_outcome, u.url, array[u.url], t.last_error, t.last_crawled_at
from crawl_targets t
left join publishers p on p.domain = t.domain
cross join lateral (select coalesce(p.document_url, 'https://' || t.domain || '/.well-known/adagents.json') as url) u
where t.last_crawled_at is not null and t.last_outcome in ('found', 'absent', 'invalid', 'transient');

insert into manifest_fetches (domain, kind, outcome, url, chain, reason, fetched_at)
select domain, 'brand_json', 'found', url, array[url], null, fetched_at from fetched_documents where kind = 'brand_json';
