import type { Queryable } from '../../../db/database.ts';
import { firstRow } from '../../../db/first-row.ts';

type Json = Record<string, unknown>;

export type GrantStatus = 'acquired' | 'pending_approval' | 'rejected' | 'revoked' | 'cancelled';

/** A rights grant as stored: which offering, whose, its terms and where its notices go. */
export interface GrantRow {
  grant_id: string;
  offering_id: string;
  owner: string;
  brand_id: string;
  status: GrantStatus;
  exclusive: boolean;
  terms: Json;
  campaign: Json;
  buyer: Json;
  revocation_webhook: Json;
  push_notification_config: Json | null;
  paused: boolean;
  created_at: Date;
  updated_at: Date;
}

const columns =
  'grant_id, offering_id, owner, brand_id, status, exclusive, terms, campaign, buyer, revocation_webhook, push_notification_config, paused, created_at, updated_at';

/** Serializes acquisitions of one offering until the transaction ends, so two cannot both take an exclusive one. */
export async function lockOffering(tx: Queryable, offeringId: string): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtext(current_schema() || '.ap_rights.' || $1))`, [offeringId]);
}

/** The offerings among these that an exclusive grant holds on `today`: acquired or pending, and not ended. */
export async function heldOfferings(
  db: Queryable,
  offeringIds: readonly string[],
  today: string,
): Promise<Set<string>> {
  const rows = await db.query<{ offering_id: string }>(
    `select distinct offering_id from brand_rights_grants
      where offering_id = any($1::text[]) and exclusive and status in ('acquired', 'pending_approval')
        and (terms->>'end_date' is null or terms->>'end_date' >= $2)`,
    [offeringIds, today],
  );
  return new Set(rows.map((r) => r.offering_id));
}

export async function insertGrant(
  tx: Queryable,
  grant: Omit<GrantRow, 'updated_at' | 'paused'> & { keyHash: Buffer | null },
): Promise<void> {
  await tx.query(
    `insert into brand_rights_grants (grant_id, offering_id, owner, brand_id, status, exclusive, terms, campaign, buyer,
       revocation_webhook, push_notification_config, key_hash, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
    [
      grant.grant_id,
      grant.offering_id,
      grant.owner,
      grant.brand_id,
      grant.status,
      grant.exclusive,
      JSON.stringify(grant.terms),
      JSON.stringify(grant.campaign),
      JSON.stringify(grant.buyer),
      JSON.stringify(grant.revocation_webhook),
      grant.push_notification_config && JSON.stringify(grant.push_notification_config),
      grant.keyHash,
      grant.created_at,
    ],
  );
}

/**
 * A grant: the caller's (`owner`; another's is not found, exactly as one that does not exist), or,
 * for the holder's own acts (a revocation), whoever's; locked until the transaction ends with
 * `lock` (an update reads the terms the one before it wrote).
 */
export async function grantOf(
  db: Queryable,
  grantId: string,
  { owner, lock = false }: { owner?: string; lock?: boolean } = {},
): Promise<GrantRow | undefined> {
  return firstRow<GrantRow>(
    db,
    `select ${columns} from brand_rights_grants
      where grant_id = $1 and ($2::text is null or owner = $2)${lock ? ' for update' : ''}`,
    [grantId, owner ?? null],
  );
}

/** Pending grants of these offerings made at or before `before`, oldest first. */
export async function pendingSince(db: Queryable, before: Date, limit: number): Promise<GrantRow[]> {
  return db.query<GrantRow>(
    `select ${columns} from brand_rights_grants where status = 'pending_approval' and created_at <= $1
      order by created_at, grant_id limit $2`,
    [before, limit],
  );
}

/** Records the holder's decision on a pending grant; undefined when it was no longer pending (decided elsewhere). */
export async function decideGrant(
  tx: Queryable,
  grantId: string,
  status: 'acquired' | 'rejected',
  keyHash: Buffer | null,
  at: Date,
): Promise<GrantRow | undefined> {
  return firstRow<GrantRow>(
    tx,
    `update brand_rights_grants set status = $2, key_hash = $3, updated_at = $4
      where grant_id = $1 and status = 'pending_approval' returning ${columns}`,
    [grantId, status, keyHash, at],
  );
}

/** Writes an update's terms and pause, and a re-issued credential's hash when there is one. */
export async function updateGrant(
  tx: Queryable,
  grantId: string,
  change: { terms: Json; paused: boolean; keyHash?: Buffer },
  at: Date,
): Promise<void> {
  await tx.query(
    `update brand_rights_grants set terms = $2, paused = $3, key_hash = coalesce($4, key_hash), updated_at = $5
      where grant_id = $1`,
    [grantId, JSON.stringify(change.terms), change.paused, change.keyHash ?? null, at],
  );
}

/** Sets a grant's status and terms (a revocation, whole or of some uses). */
export async function reviseGrant(tx: Queryable, grantId: string, status: GrantStatus, terms: Json, at: Date) {
  await tx.query(`update brand_rights_grants set status = $2, terms = $3, updated_at = $4 where grant_id = $1`, [
    grantId,
    status,
    JSON.stringify(terms),
    at,
  ]);
}
