import type { Database } from '../../../src/db/database.ts';

/**
 * The tables a request writes what it was asked to (entries, their revisions and events, reviews,
 * property check reports, challenges, enrollments, OAuth clients; the agents' accounts, buys, creatives, activations,
 * tasks and idempotency records, which every committed mutating task writes one of). Counters,
 * caches, sessions and what background passes write on their own are left out: a refused request
 * may count against a rate limit, and a pass may run during any case.
 */
const tables = [
  'registry_events',
  'brands',
  'brand_revisions',
  'properties',
  'property_revisions',
  'policies',
  'policy_revisions',
  'homograph_reviews',
  'property_check_reports',
  'ownership_challenges',
  'ownership_proofs',
  'registry_agents',
  'crawl_targets',
  'oauth_records',
  'organizations',
  'users',
  'memberships',
  'api_keys',
  'idempotency_records',
  'agent_tasks',
  'sales_accounts',
  'sales_media_buys',
  'sales_media_buy_packages',
  'sales_creatives',
  'sales_creative_assignments',
  'creative_library',
  'signal_activations',
] as const;

export type Counts = Record<string, number>;

/** Row counts of those tables, in one statement. */
export async function countRows(db: Database): Promise<Counts> {
  const sql = `select ${tables.map((t) => `(select count(*) from ${t}) as ${t}`).join(', ')}`;
  const rows = await db.query<Record<string, number | string>>(sql);
  return Object.fromEntries(tables.map((t) => [t, Number(rows[0]![t])]));
}

/** What changed between two counts, e.g. `brands +1`; empty when nothing did. */
export function changed(before: Counts, after: Counts): string[] {
  return tables
    .filter((t) => before[t] !== after[t])
    .map((t) => `${t} ${after[t]! - before[t]! >= 0 ? '+' : ''}${after[t]! - before[t]!}`);
}
