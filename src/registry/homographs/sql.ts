import type { Queryable } from '../../db/database.ts';
import { firstRow } from '../../db/first-row.ts';

/** Every query of the homographs capability. */

export type ReviewKind = 'brand' | 'property';
export type ReviewStatus = 'pending' | 'approved' | 'rejected';
export type ReviewReason = 'deny_list' | 'registered_brand' | 'registered_property';
/** `save`: a save held because its domain looks like another; `community_submission`: the legacy endpoint, which always asks. */
export type ReviewSource = 'save' | 'community_submission';

/** Keeps a domain's skeleton current (inside the save's transaction). */
export async function upsertSkeletons(
  tx: Queryable,
  rows: Array<{ domain: string; skeleton: string }>,
  version: string,
): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `insert into domain_skeletons (domain, skeleton, version)
     select d, s, $3 from unnest($1::text[], $2::text[]) as t(d, s)
     on conflict (domain) do update set skeleton = excluded.skeleton, version = excluded.version
     where domain_skeletons.skeleton <> excluded.skeleton or domain_skeletons.version <> excluded.version`,
    [rows.map((r) => r.domain), rows.map((r) => r.skeleton), version],
  );
}

/** Registered domains (brands, their aliases, properties) whose skeleton is missing or from other data. */
export async function domainsWithoutSkeleton(db: Queryable, version: string, limit: number): Promise<string[]> {
  const rows = await db.query<{ domain: string }>(
    `select r.domain from (
       select domain from brands union select domain from brand_aliases union select publisher_domain from properties
     ) r left join domain_skeletons s on s.domain = r.domain
     where s.domain is null or s.version <> $1
     order by r.domain limit $2`,
    [version, limit],
  );
  return rows.map((r) => r.domain);
}

/** Drops skeletons of domains no longer registered (they are ignored meanwhile: see lookalikes). */
export async function deleteOrphanSkeletons(db: Queryable): Promise<number> {
  const rows = await db.query<{ domain: string }>(
    `delete from domain_skeletons s
     where not exists (select 1 from brands b where b.domain = s.domain)
       and not exists (select 1 from brand_aliases a where a.domain = s.domain)
       and not exists (select 1 from properties p where p.publisher_domain = s.domain)
     returning s.domain`,
  );
  return rows.length;
}

export interface Standing {
  /** The domain has a brand, brand alias or property entry. */
  registered: boolean;
  /** An operator approved a save of this domain held as a look-alike (an approval vouches only for what the operator was shown). */
  approved: boolean;
}

export async function standing(db: Queryable, domain: string): Promise<Standing> {
  const [row] = await db.query<Standing>(
    `select
       exists (select 1 from brands where domain = $1)
         or exists (select 1 from brand_aliases where domain = $1)
         or exists (select 1 from properties where publisher_domain = $1) as registered,
       exists (select 1 from homograph_reviews where domain = $1 and status = 'approved' and reason is not null) as approved`,
    [domain],
  );
  return row!;
}

export interface Lookalike {
  domain: string;
  kind: ReviewKind;
}

/**
 * Other registered domains with this skeleton: one indexed lookup, each hit confirmed against the
 * entries themselves (a skeleton row may outlive its entry). Brands first, then by domain.
 */
export async function lookalikes(db: Queryable, skeleton: string, domain: string): Promise<Lookalike[]> {
  return db.query<Lookalike>(
    `select s.domain, case when exists (select 1 from brands b where b.domain = s.domain)
                            or exists (select 1 from brand_aliases a where a.domain = s.domain) then 'brand' else 'property' end as kind
     from domain_skeletons s
     where s.skeleton = $1 and s.domain <> $2
       and (exists (select 1 from brands b where b.domain = s.domain)
         or exists (select 1 from brand_aliases a where a.domain = s.domain)
         or exists (select 1 from properties p where p.publisher_domain = s.domain))
     order by kind, s.domain limit 10`,
    [skeleton, domain],
  );
}

export interface ReviewRow {
  id: string;
  kind: ReviewKind;
  domain: string;
  payload: Record<string, unknown>;
  organization_id: string | null;
  submitted_by: string;
  submitter: Record<string, unknown>;
  source: ReviewSource;
  /** Null for a community submission whose domain looks like nothing registered or protected. */
  reason: ReviewReason | null;
  similar_to: string | null;
  status: ReviewStatus;
  decided_by: string | null;
  decided_at: Date | null;
  note: string | null;
  created_at: Date;
}

const COLUMNS =
  'r.id, r.kind, r.domain, r.payload, r.organization_id, r.submitted_by, r.submitter, r.source, r.reason, r.similar_to, r.status, r.decided_by, r.decided_at, r.note, r.created_at';

export type NewReview = Omit<ReviewRow, 'status' | 'decided_by' | 'decided_at' | 'note' | 'created_at'>;

export async function insertReview(tx: Queryable, r: NewReview): Promise<ReviewRow> {
  const [row] = await tx.query<ReviewRow>(
    `insert into homograph_reviews as r (id, kind, domain, payload, organization_id, submitted_by, submitter, source, reason, similar_to)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning ${COLUMNS}`,
    [
      r.id,
      r.kind,
      r.domain,
      JSON.stringify(r.payload),
      r.organization_id,
      r.submitted_by,
      JSON.stringify(r.submitter),
      r.source,
      r.reason,
      r.similar_to,
    ],
  );
  return row!;
}

/** Newest first; `id` breaks ties so pages never skip or repeat a row. */
export async function listReviews(
  db: Queryable,
  f: { status: ReviewStatus; limit: number; offset: number },
): Promise<{ rows: ReviewRow[]; total: number }> {
  const [rows, counts] = await Promise.all([
    db.query<ReviewRow>(
      `select ${COLUMNS} from homograph_reviews r where r.status = $1 order by r.created_at desc, r.id desc limit $2 offset $3`,
      [f.status, f.limit, f.offset],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from homograph_reviews where status = $1`, [f.status]),
  ]);
  return { rows, total: counts[0]!.n };
}

/** Locks the review, so two decisions of it queue and the second sees the first. */
export async function lockReview(tx: Queryable, id: string): Promise<ReviewRow | undefined> {
  return firstRow<ReviewRow>(tx, `select ${COLUMNS} from homograph_reviews r where r.id = $1 for update`, [id]);
}

export async function recordDecision(
  tx: Queryable,
  id: string,
  status: Exclude<ReviewStatus, 'pending'>,
  decidedBy: string,
  note: string | null,
): Promise<ReviewRow> {
  const [row] = await tx.query<ReviewRow>(
    `update homograph_reviews r set status = $2, decided_by = $3, decided_at = now(), note = $4
     where r.id = $1 and r.status = 'pending' returning ${COLUMNS}`,
    [id, status, decidedBy, note],
  );
  return row!;
}
