import type { Queryable } from '../../../db/database.ts';
import { firstRow } from '../../../db/first-row.ts';
import { keysetPage } from './keyset-page.ts';

/** Publishers: a domain's adagents.json as last crawled. */

export interface PublisherRow {
  domain: string;
  status: 'active' | 'stale';
  document_url: string;
  manager_domain: string | null;
  document_hash: string;
  stale_reason: string | null;
  discovered_at: Date;
  crawled_at: Date;
}

const PUBLISHER =
  'domain, status, document_url, manager_domain, document_hash, stale_reason, discovered_at, crawled_at';

/** Creates the publisher if it is new (true then), so the caller can lock it either way. */
export async function ensurePublisher(
  tx: Queryable,
  p: { domain: string; document_url: string; manager_domain: string | null; document_hash: string },
  now: Date,
): Promise<boolean> {
  const rows = await tx.query(
    `insert into publishers (domain, status, document_url, manager_domain, document_hash, discovered_at, crawled_at)
     values ($1, 'active', $2, $3, $4, $5, $5) on conflict (domain) do nothing returning domain`,
    [p.domain, p.document_url, p.manager_domain, p.document_hash, now],
  );
  return rows.length > 0;
}

/** Serializes crawls of one publisher: whoever holds this lock compares against what the other wrote. */
export async function lockPublisher(tx: Queryable, domain: string): Promise<PublisherRow | undefined> {
  return firstRow<PublisherRow>(tx, `select ${PUBLISHER} from publishers where domain = $1 for update`, [domain]);
}

export async function publisher(db: Queryable, domain: string): Promise<PublisherRow | undefined> {
  return firstRow<PublisherRow>(db, `select ${PUBLISHER} from publishers where domain = $1`, [domain]);
}

export async function updatePublisher(
  tx: Queryable,
  p: { domain: string; document_url: string; manager_domain: string | null; document_hash: string },
  now: Date,
): Promise<void> {
  await tx.query(
    `update publishers set status = 'active', stale_reason = null, document_url = $2, manager_domain = $3, document_hash = $4, crawled_at = $5 where domain = $1`,
    [p.domain, p.document_url, p.manager_domain, p.document_hash, now],
  );
}

/** An unchanged re-crawl: only the times move. */
export async function touchPublisher(tx: Queryable, domain: string, now: Date): Promise<void> {
  await tx.query(`update publishers set crawled_at = $2 where domain = $1`, [domain, now]);
  await tx.query(
    `update catalog_properties set last_resolved_at = $2 where publisher_domain = $1 and status = 'active'`,
    [domain, now],
  );
}

/**
 * An unchanged re-crawl known only by the server's 304: the times move if the publisher is still
 * active with the document of `hash`, in one statement. False when it is not (stale since, or
 * changed by other means): the caller applies the document.
 */
export async function touchIfCurrent(db: Queryable, domain: string, hash: string, now: Date): Promise<boolean> {
  const [row] = await db.query<{ touched: number }>(
    `with touched as (
       update publishers set crawled_at = $3 where domain = $1 and status = 'active' and document_hash = $2 returning domain),
     properties as (
       update catalog_properties set last_resolved_at = $3
       where publisher_domain in (select domain from touched) and status = 'active' returning 1)
     select (select count(*) from touched)::int as touched`,
    [domain, hash, now],
  );
  return row!.touched > 0;
}

export async function markPublisherStale(tx: Queryable, domain: string, reason: string, now: Date): Promise<void> {
  await tx.query(`update publishers set status = 'stale', stale_reason = $2, crawled_at = $3 where domain = $1`, [
    domain,
    reason,
    now,
  ]);
}

export const publishersPage = (db: Queryable, after: string | undefined, limit: number) =>
  keysetPage<PublisherRow>(db, `select ${PUBLISHER} from publishers`, 'domain', 'text', after, limit);
