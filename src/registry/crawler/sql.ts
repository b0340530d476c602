import type { Queryable } from '../../db/database.ts';
import type { DocumentKind } from '../documents/well-known.ts';
import type { Validators } from './fetch-document.ts';

/** Every query of the crawl queue (table crawl_targets, migration 0013). */

// Names under .example (RFC 2606) never resolve: the demo registry's publishers and houses live
// there, and a crawl could only fail and retry forever, so the queue never takes one on its own.
const crawlable = (column: string) => `${column} not like '%.example'`;

/** Adds domains to the periodic re-crawl, due at `dueAt`; a domain already queued becomes due no later. */
export async function enqueue(db: Queryable, domains: string[], dueAt: Date): Promise<void> {
  if (domains.length === 0) return;
  await db.query(
    `insert into crawl_targets (domain, next_crawl_at) select d, $2 from unnest($1::text[]) d
     on conflict (domain) do update set next_crawl_at = least(crawl_targets.next_crawl_at, excluded.next_crawl_at)`,
    [domains, dueAt],
  );
}

/** Adds domains not yet known to the queue, due at `dueAt`; known ones keep their schedule. */
export async function enqueueNew(db: Queryable, domains: string[], dueAt: Date): Promise<void> {
  if (domains.length === 0) return;
  await db.query(
    `insert into crawl_targets (domain, next_crawl_at) select d, $2 from unnest($1::text[]) d where ${crawlable('d')} on conflict (domain) do nothing`,
    [domains, dueAt],
  );
}

/**
 * Queues every domain the registry has an entry for (property entries, brands) that is not queued
 * yet, so a publisher first saved by hand is crawled too and becomes authoritative once its own
 * file appears. Returns how many were added.
 */
export async function enqueueKnownDomains(db: Queryable, dueAt: Date): Promise<number> {
  const rows = await db.query(
    `insert into crawl_targets (domain, next_crawl_at)
     select d.domain, $1 from (select publisher_domain as domain from properties union select domain from brands) d
     where not exists (select 1 from crawl_targets t where t.domain = d.domain) and ${crawlable('d.domain')}
     on conflict (domain) do nothing returning domain`,
    [dueAt],
  );
  return rows.length;
}

/**
 * Leases up to `limit` due domains to the caller. SKIP LOCKED lets workers on other instances
 * claim at the same moment without waiting on or taking each other's rows; the lease brings a
 * domain back if its worker dies mid-crawl.
 */
export async function claimDue(db: Queryable, limit: number, now: Date, leaseUntil: Date): Promise<string[]> {
  const rows = await db.query<{ domain: string }>(
    `update crawl_targets t set claimed_until = $3
     where t.domain in (
       select domain from crawl_targets
       where next_crawl_at <= $2 and (claimed_until is null or claimed_until < $2)
       order by next_crawl_at limit $1 for update skip locked)
     returning t.domain`,
    [limit, now, leaseUntil],
  );
  return rows.map((r) => r.domain);
}

export interface CrawlRecord {
  domain: string;
  nextAt: Date;
  failures: number;
  outcome: string;
  error: string | null;
  crawledAt: Date;
  /** How the fetch of each of the domain's documents went, for the manifest-refs lookup; none when left out. */
  fetches?: ManifestFetch[];
}

export interface ManifestFetch {
  kind: DocumentKind;
  outcome: 'found' | 'absent' | 'invalid' | 'transient';
  url: string;
  chain: string[];
  reason: string | null;
  /** Kept for the next crawl's conditional request, with a document found. */
  validators?: Validators | undefined;
}

/**
 * Records a crawl and when the domain is next due, releasing its lease (queuing it if it was
 * not), and how each document's fetch went (table manifest_fetches, migration 0037), in one
 * statement: the crawl of an unchanged publisher is a handful of statements, and this is two.
 */
export async function recordCrawl(db: Queryable, r: CrawlRecord): Promise<void> {
  await db.query(
    `with fetches as (
       insert into manifest_fetches (domain, kind, outcome, url, chain, reason, fetched_at, validators)
       select $1, f->>'kind', f->>'outcome', f->>'url', array(select jsonb_array_elements_text(f->'chain')), f->>'reason',
         $4, f->'validators'
       from jsonb_array_elements($7::jsonb) f
       on conflict (domain, kind) do update set outcome = excluded.outcome, url = excluded.url, chain = excluded.chain,
         reason = excluded.reason, fetched_at = excluded.fetched_at, validators = excluded.validators)
     insert into crawl_targets (domain, next_crawl_at, failures, last_crawled_at, last_outcome, last_error)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (domain) do update set next_crawl_at = excluded.next_crawl_at, claimed_until = null, failures = excluded.failures,
       last_crawled_at = excluded.last_crawled_at, last_outcome = excluded.last_outcome, last_error = excluded.last_error`,
    [r.domain, r.nextAt, r.failures, r.crawledAt, r.outcome, r.error, JSON.stringify(r.fetches ?? [])],
  );
}

/** The validators kept by the last crawl that found each of a domain's documents. */
export async function validatorsOf(db: Queryable, domain: string): Promise<Partial<Record<DocumentKind, Validators>>> {
  const rows = await db.query<{ kind: DocumentKind; validators: Validators }>(
    `select kind, validators from manifest_fetches where domain = $1 and outcome = 'found' and validators is not null`,
    [domain],
  );
  return Object.fromEntries(rows.map((r) => [r.kind, r.validators]));
}

export async function failuresOf(db: Queryable, domain: string): Promise<number> {
  const [row] = await db.query<{ failures: number }>(`select failures from crawl_targets where domain = $1`, [domain]);
  return row?.failures ?? 0;
}

export interface TargetRow {
  domain: string;
  next_crawl_at: Date;
  claimed_until: Date | null;
  failures: number;
  last_crawled_at: Date | null;
  last_outcome: string | null;
  last_error: string | null;
}

export async function target(db: Queryable, domain: string): Promise<TargetRow | undefined> {
  const [row] = await db.query<TargetRow>(`select * from crawl_targets where domain = $1`, [domain]);
  return row;
}
