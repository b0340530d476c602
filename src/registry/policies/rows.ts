import type { PolicyRow, RevisionRow, StoredEntry } from './sql.ts';

/**
 * A policy as resolve, bulk resolve, the feed and the snapshot show it: the stored policy-entry
 * with every field the registry client reads present (null or empty when the entry says nothing),
 * and the registry's own metadata. `at` is the revision shown: the current one unless a version
 * was pinned.
 */
export function toPolicy(
  row: PolicyRow,
  at: Pick<RevisionRow, 'snapshot' | 'revision_number' | 'source_type' | 'review_status' | 'created_at'> = current(row),
) {
  const e = at.snapshot;
  return {
    ...summaryOf(e, row, at),
    policy: e.policy,
    guidance: text(e.guidance),
    exemplars: (e.exemplars as Record<string, unknown> | undefined) ?? null,
    ext: (e.ext as Record<string, unknown> | undefined) ?? null,
  };
}

export type WirePolicy = ReturnType<typeof toPolicy>;

/** A policy as the listing shows it: without the policy text, guidance, exemplars and ext. */
export function toSummary(row: PolicyRow) {
  return summaryOf(row.entry, row, current(row));
}

function current(row: PolicyRow) {
  return {
    snapshot: row.entry,
    revision_number: row.revision,
    source_type: row.source_type,
    review_status: row.review_status,
    created_at: row.updated_at,
  };
}

function summaryOf(
  e: StoredEntry,
  row: PolicyRow,
  at: Pick<RevisionRow, 'revision_number' | 'source_type' | 'review_status' | 'created_at'>,
) {
  return {
    policy_id: row.policy_id,
    version: e.version,
    name: e.name,
    description: text(e.description),
    category: e.category as 'regulation' | 'standard',
    enforcement: e.enforcement as 'must' | 'should' | 'may',
    requires_human_review: e.requires_human_review === true,
    jurisdictions: (e.jurisdictions as string[] | undefined) ?? [],
    region_aliases: (e.region_aliases as Record<string, string[]> | undefined) ?? {},
    policy_categories: (e.policy_categories as string[] | undefined) ?? [],
    channels: (e.channels as string[] | undefined) ?? null,
    governance_domains: (e.governance_domains as string[] | undefined) ?? [],
    effective_date: text(e.effective_date),
    sunset_date: text(e.sunset_date),
    source_url: text(e.source_url),
    source_name: text(e.source_name),
    source_type: at.source_type,
    review_status: at.review_status,
    revision_number: at.revision_number,
    created_at: row.created_at.toISOString(),
    updated_at: at.created_at.toISOString(),
  };
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
