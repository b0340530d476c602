import type { Queryable } from '../../db/database.ts';
import { likePattern } from '../../db/like.ts';

/** Every query of the policy registry. */

export type SourceType = 'registry' | 'community';
export type ReviewStatus = 'pending' | 'approved';

/** A policy-entry as stored: what the save body says, `policy_id` included, absent fields left out. */
export type StoredEntry = Record<string, unknown> & {
  policy_id: string;
  version: string;
  name: string;
  category: string;
  enforcement: string;
  policy: string;
};

export interface PolicyRow {
  policy_id: string;
  source_type: SourceType;
  review_status: ReviewStatus;
  owner_organization_id: string | null;
  version: string;
  entry: StoredEntry;
  revision: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'p.policy_id, p.source_type, p.review_status, p.owner_organization_id, p.version, p.entry, p.revision, p.created_at, p.updated_at';

export async function policiesById(db: Queryable, ids: readonly string[]): Promise<Map<string, PolicyRow>> {
  const rows = await db.query<PolicyRow>(`select ${COLUMNS} from policies p where p.policy_id = any($1::text[])`, [
    [...new Set(ids)],
  ]);
  return new Map(rows.map((row) => [row.policy_id, row]));
}

/**
 * Serializes the writes of one policy id until the transaction ends, its creation included (a row
 * lock cannot, before the row exists): each write then sees the one before it, whole, when it
 * checks who may write and whether its version is new.
 */
export async function lockPolicyId(tx: Queryable, id: string): Promise<PolicyRow | undefined> {
  await tx.query(`select pg_advisory_xact_lock(hashtext(current_schema() || '.ap_policy.' || $1))`, [id]);
  const [row] = await tx.query<PolicyRow>(`select ${COLUMNS} from policies p where p.policy_id = $1`, [id]);
  return row;
}

export interface PolicyWrite {
  policy_id: string;
  source_type: SourceType;
  review_status: ReviewStatus;
  owner_organization_id: string | null;
  entry: StoredEntry;
}

/**
 * Creates the policy or writes its next revision. The registry's own write takes any policy over
 * (it then has no owner); a community write changes only a community policy of the writer's
 * organization, or any community policy when `anyOwner` (a registry admin), and keeps its owner.
 * Nothing is returned when the policy was left alone. Callers hold `lockPolicyId`, which decides;
 * the condition here keeps the rule in the statement that writes too.
 */
export async function upsertPolicy(tx: Queryable, w: PolicyWrite, anyOwner = false): Promise<PolicyRow | undefined> {
  const [row] = await tx.query<PolicyRow>(
    `insert into policies as p (policy_id, source_type, review_status, owner_organization_id, version, entry, revision)
     values ($1, $2, $3, $4, $5, $6, 1)
     on conflict (policy_id) do update set
       source_type = excluded.source_type, review_status = excluded.review_status,
       owner_organization_id = case when excluded.source_type = 'registry' then null else coalesce(p.owner_organization_id, excluded.owner_organization_id) end,
       version = excluded.version, entry = excluded.entry, revision = p.revision + 1, updated_at = now()
     where excluded.source_type = 'registry'
       or (p.source_type <> 'registry' and ($7::boolean or p.owner_organization_id is not distinct from excluded.owner_organization_id))
     returning ${COLUMNS}`,
    [
      w.policy_id,
      w.source_type,
      w.review_status,
      w.owner_organization_id,
      w.entry.version,
      JSON.stringify(w.entry),
      anyOwner,
    ],
  );
  return row;
}

export interface NewRevision {
  editor_name: string;
  saved_by: string;
  organization_id: string | null;
  edit_summary: string;
}

/** Records the policy as it now is as its revision (every write calls this in its transaction). */
export async function insertRevision(tx: Queryable, row: PolicyRow, r: NewRevision): Promise<void> {
  await tx.query(
    `insert into policy_revisions (policy_id, revision_number, version, source_type, review_status, editor_name, saved_by, organization_id, edit_summary, snapshot)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      row.policy_id,
      row.revision,
      row.version,
      row.source_type,
      row.review_status,
      r.editor_name,
      r.saved_by,
      r.organization_id,
      r.edit_summary,
      JSON.stringify(row.entry),
    ],
  );
}

export interface RevisionRow {
  revision_number: number;
  version: string;
  source_type: SourceType;
  review_status: ReviewStatus;
  editor_name: string;
  edit_summary: string;
  snapshot: StoredEntry;
  created_at: Date;
}

/** The newest revision that carried `version`. */
export async function revisionWithVersion(
  db: Queryable,
  id: string,
  version: string,
): Promise<RevisionRow | undefined> {
  const [row] = await db.query<RevisionRow>(
    `select revision_number, version, source_type, review_status, editor_name, edit_summary, snapshot, created_at
     from policy_revisions where policy_id = $1 and version = $2 order by revision_number desc limit 1`,
    [id, version],
  );
  return row;
}

/** A page of the policy's revisions, newest first, with their total; undefined when the policy does not exist. */
export async function revisionsOf(
  db: Queryable,
  id: string,
  limit: number,
  offset: number,
): Promise<{ total: number; revisions: RevisionRow[] } | undefined> {
  const [policy] = await db.query<{ total: number }>(
    `select (select count(*)::int from policy_revisions r where r.policy_id = p.policy_id) as total from policies p where p.policy_id = $1`,
    [id],
  );
  if (!policy) return undefined;
  const revisions = await db.query<RevisionRow>(
    `select revision_number, version, source_type, review_status, editor_name, edit_summary, snapshot, created_at
     from policy_revisions where policy_id = $1 order by revision_number desc limit $2 offset $3`,
    [id, limit, offset],
  );
  return { total: policy.total, revisions };
}

export interface ListFilter {
  search?: string | undefined;
  category?: string | undefined;
  enforcement?: string | undefined;
  /** Upper case. */
  jurisdiction?: string | undefined;
  policyCategory?: string | undefined;
  domain?: string | undefined;
}

/**
 * The listing's predicate over `p`, its parameters from `$1`. A jurisdiction matches a policy that
 * names it, whose region aliases name it (as an alias or a member), or that names no jurisdiction
 * (applies everywhere). `?` is jsonb's key-or-element test, on both engines.
 */
function listPredicate(f: ListFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [
    likePattern(f.search),
    f.category ?? null,
    f.enforcement ?? null,
    f.jurisdiction ?? null,
    f.policyCategory ?? null,
    f.domain ?? null,
  ];
  const where = `($1::text is null or p.policy_id ilike $1 escape '\\' or p.entry->>'name' ilike $1 escape '\\' or p.entry->>'description' ilike $1 escape '\\')
    and ($2::text is null or p.entry->>'category' = $2)
    and ($3::text is null or p.entry->>'enforcement' = $3)
    and ($4::text is null
      or coalesce(jsonb_array_length(p.entry->'jurisdictions'), 0) = 0
      or p.entry->'jurisdictions' ? $4
      or coalesce(p.entry->'region_aliases', '{}'::jsonb) ? $4
      or exists (select 1 from jsonb_each(coalesce(p.entry->'region_aliases', '{}'::jsonb)) a where a.value ? $4))
    and ($5::text is null or coalesce(p.entry->'policy_categories', '[]'::jsonb) ? $5)
    and ($6::text is null or coalesce(p.entry->'governance_domains', '[]'::jsonb) ? $6)`;
  return { where, params };
}

/** A page of the matching policies in policy_id order, one more than asked (to tell whether more follow). */
export async function listPage(db: Queryable, f: ListFilter, limit: number, offset: number): Promise<PolicyRow[]> {
  const { where, params } = listPredicate(f);
  return db.query<PolicyRow>(
    `select ${COLUMNS} from policies p where ${where} order by p.policy_id limit $7 offset $8`,
    [...params, limit + 1, offset],
  );
}

/** The matching policies by category. */
export async function countByCategory(db: Queryable, f: ListFilter): Promise<{ regulation: number; standard: number }> {
  const { where, params } = listPredicate(f);
  const rows = await db.query<{ category: string; n: number }>(
    `select p.entry->>'category' as category, count(*)::int as n from policies p where ${where} group by 1`,
    params,
  );
  const counts = { regulation: 0, standard: 0 };
  for (const row of rows)
    if (row.category === 'regulation' || row.category === 'standard') counts[row.category] = row.n;
  return counts;
}

/** Policies in policy_id order after `after`, for the feed snapshot. */
export async function pageById(db: Queryable, after: string | undefined, limit: number): Promise<PolicyRow[]> {
  return db.query<PolicyRow>(
    `select ${COLUMNS} from policies p where ($1::text is null or p.policy_id > $1) order by p.policy_id limit $2`,
    [after ?? null, limit],
  );
}
