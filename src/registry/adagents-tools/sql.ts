import type { Queryable } from '../../db/database.ts';

/**
 * Every query of the adagents tools. They only read what the crawler and the graph keep:
 * manifest_fetches (0037), fetched_documents, publishers, catalog_properties, crawl_targets, brands.
 */

/** The properties the registry holds for a publisher (active ones, as its last file declared them), in a stable order. */
export async function registryProperties(db: Queryable, publisher: string): Promise<Record<string, unknown>[]> {
  const rows = await db.query<{ property: Record<string, unknown> }>(
    `select property from catalog_properties where publisher_domain = $1 and status = 'active' order by property_id nulls last, property_key`,
    [publisher],
  );
  return rows.map((r) => r.property);
}

export interface FetchRow {
  kind: 'adagents_json' | 'brand_json';
  outcome: 'found' | 'absent' | 'invalid' | 'transient';
  url: string;
  chain: string[];
  reason: string | null;
  fetched_at: Date;
}

export interface StoredRow {
  kind: 'adagents_json' | 'brand_json';
  url: string;
  fetched_at: Date;
}

export interface PublisherRow {
  status: 'active' | 'stale';
  stale_reason: string | null;
  manager_domain: string | null;
  document_url: string;
}

export interface CrawlRow {
  last_crawled_at: Date | null;
  next_crawl_at: Date;
  last_outcome: string | null;
}

/** Everything the registry keeps about where a domain's manifests live; each part undefined or empty when nothing is known. */
export async function manifestState(db: Queryable, domain: string) {
  const fetches = await db.query<FetchRow>(
    `select kind, outcome, url, chain, reason, fetched_at from manifest_fetches where domain = $1`,
    [domain],
  );
  const stored = await db.query<StoredRow>(`select kind, url, fetched_at from fetched_documents where domain = $1`, [
    domain,
  ]);
  const [publisher] = await db.query<PublisherRow>(
    `select status, stale_reason, manager_domain, document_url from publishers where domain = $1`,
    [domain],
  );
  const [crawl] = await crawlState(db, domain);
  const [brand] = await db.query<{ house_domain: string | null }>(
    `select house_domain from brands where domain = $1 and source = 'brand_json'`,
    [domain],
  );
  return { fetches, stored, publisher, crawl, houseDomain: brand?.house_domain ?? null };
}

export function crawlState(db: Queryable, domain: string): Promise<CrawlRow[]> {
  return db.query<CrawlRow>(
    `select last_crawled_at, next_crawl_at, last_outcome from crawl_targets where domain = $1`,
    [domain],
  );
}
