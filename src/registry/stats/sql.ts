import type { Queryable } from '../../db/database.ts';

/**
 * The registry summary's queries: each an aggregate over a table, run by the background refresh,
 * never by a request.
 */

export async function brandsBySource(db: Queryable): Promise<Array<{ source: string; n: number }>> {
  return db.query(`select source, count(*) as n from brands group by source`);
}

export async function agentsByTypeAndVisibility(
  db: Queryable,
): Promise<Array<{ type: string; visibility: string; n: number }>> {
  return db.query(`select type, visibility, count(*) as n from registry_agents group by type, visibility`);
}

/**
 * Events committed since `since`. Event ids are UUID v7 whose first 48 bits are the commit's
 * millisecond, so the smallest id of that millisecond bounds a range scan of the primary key; the
 * time itself is then checked exactly (the sequencer keeps ids rising even if the clock steps back).
 */
export async function feedSince(db: Queryable, since: Date): Promise<{ events: number; latest: Date | null }> {
  const [count] = await db.query<{ n: number }>(
    `select count(*) as n from registry_events where event_id >= $1::uuid and created_at >= $2`,
    [firstEventIdAt(since), since],
  );
  const [latest] = await db.query<{ created_at: Date }>(
    `select created_at from registry_events order by event_id desc limit 1`,
  );
  return { events: count?.n ?? 0, latest: latest?.created_at ?? null };
}

export function firstEventIdAt(time: Date): string {
  const hex = Math.max(0, Math.floor(time.getTime())).toString(16).padStart(12, '0').slice(-12);
  return `${hex.slice(0, 8)}-${hex.slice(8)}-0000-0000-000000000000`;
}

export interface CrawlRow {
  domains: number;
  due: number;
  in_progress: number;
  failing: number;
  never_crawled: number;
  oldest_due_at: Date | null;
}

/** The crawl queue's state at `now`, and the outcomes of the crawls since `since` (each domain's latest). */
export async function crawlHealth(
  db: Queryable,
  now: Date,
  since: Date,
): Promise<{ queue: CrawlRow; outcomes: Array<{ outcome: string; n: number }> }> {
  const [queue] = await db.query<CrawlRow>(
    `select count(*) as domains,
            count(*) filter (where next_crawl_at <= $1 and (claimed_until is null or claimed_until <= $1)) as due,
            count(*) filter (where claimed_until > $1) as in_progress,
            count(*) filter (where failures > 0) as failing,
            count(*) filter (where last_crawled_at is null) as never_crawled,
            min(next_crawl_at) filter (where next_crawl_at <= $1 and (claimed_until is null or claimed_until <= $1)) as oldest_due_at
       from crawl_targets`,
    [now],
  );
  const outcomes = await db.query<{ outcome: string; n: number }>(
    `select last_outcome as outcome, count(*) as n from crawl_targets where last_crawled_at >= $1 and last_outcome is not null group by last_outcome`,
    [since],
  );
  return { queue: queue!, outcomes };
}
