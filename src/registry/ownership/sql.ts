import type { Queryable } from '../../db/database.ts';
import { firstRow } from '../../db/first-row.ts';

/** The SQL of ownership challenges and proofs. Times come from the application's clock. */

export type ChallengeState = 'issued' | 'verifying' | 'consumed' | 'invalidated';
export type ProofMethod = 'dns' | 'http';

export interface ChallengeRow {
  id: string;
  organization_id: string;
  domain: string;
  nonce: string;
  state: ChallengeState;
  method: ProofMethod | null;
  issued_at: Date;
  expires_at: Date;
  decided_at: Date | null;
  failure: string | null;
}

const CHALLENGE = 'id, organization_id, domain, nonce, state, method, issued_at, expires_at, decided_at, failure';

export async function insertChallenge(
  db: Queryable,
  c: Pick<ChallengeRow, 'id' | 'organization_id' | 'domain' | 'nonce' | 'issued_at' | 'expires_at'>,
): Promise<ChallengeRow> {
  const [row] = await db.query<ChallengeRow>(
    `insert into ownership_challenges (id, organization_id, domain, nonce, state, issued_at, expires_at)
     values ($1, $2, $3, $4, 'issued', $5, $6) returning ${CHALLENGE}`,
    [c.id, c.organization_id, c.domain, c.nonce, c.issued_at, c.expires_at],
  );
  return row!;
}

/**
 * Takes an issued, unexpired challenge of this organization for verification. One statement, so
 * of many simultaneous verifications exactly one gets the row; the others see it taken.
 */
export async function claimChallenge(
  db: Queryable,
  id: string,
  organizationId: string,
  method: ProofMethod,
  now: Date,
): Promise<ChallengeRow | undefined> {
  return firstRow<ChallengeRow>(
    db,
    `update ownership_challenges set state = 'verifying', method = $3
      where id = $1 and organization_id = $2 and state = 'issued' and expires_at > $4
      returning ${CHALLENGE}`,
    [id, organizationId, method, now],
  );
}

export async function challengeById(db: Queryable, id: string): Promise<ChallengeRow | undefined> {
  return firstRow<ChallengeRow>(db, `select ${CHALLENGE} from ownership_challenges where id = $1`, [id]);
}

export async function settleChallenge(
  db: Queryable,
  id: string,
  state: 'consumed' | 'invalidated',
  now: Date,
  failure: string | null,
): Promise<void> {
  await db.query(
    `update ownership_challenges set state = $2, decided_at = $3, failure = $4 where id = $1 and state = 'verifying'`,
    [id, state, now, failure],
  );
}

export async function recordProof(
  db: Queryable,
  organizationId: string,
  domain: string,
  method: ProofMethod,
  now: Date,
): Promise<void> {
  await db.query(
    `insert into ownership_proofs (organization_id, domain, method, proved_at) values ($1, $2, $3, $4)
     on conflict (organization_id, domain) do update set method = excluded.method, proved_at = excluded.proved_at`,
    [organizationId, domain, method, now],
  );
}

export async function latestProof(
  db: Queryable,
  organizationId: string,
  domain: string,
): Promise<{ method: ProofMethod; proved_at: Date } | undefined> {
  return firstRow<{ method: ProofMethod; proved_at: Date }>(
    db,
    `select method, proved_at from ownership_proofs where organization_id = $1 and domain = $2`,
    [organizationId, domain],
  );
}
