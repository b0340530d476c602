import type { Queryable } from '../../../db/database.ts';
import type { ForcedArm } from '../media-buys/index.ts';

/** Stores the account's directive for its next create_media_buy, replacing any it had. */
export async function putForcedArm(db: Queryable, accountId: string, forced: ForcedArm, now: Date): Promise<void> {
  await db.query(
    `insert into sales_forced_create_arms (account_id, arm, task_id, message, created_at) values ($1, $2, $3, $4, $5)
     on conflict (account_id) do update set arm = excluded.arm, task_id = excluded.task_id, message = excluded.message, created_at = excluded.created_at`,
    [accountId, forced.arm, forced.task_id, forced.message, now],
  );
}

/** Deletes the account's directive and answers it: of two transactions taking it, one gets it. */
export async function takeForcedArm(db: Queryable, accountId: string): Promise<ForcedArm | undefined> {
  const [row] = await db.query<ForcedArm>(`delete from sales_forced_create_arms where account_id = $1 returning arm, task_id, message`, [accountId]);
  return row;
}

export type SeedKind = 'creative' | 'media_buy';

/**
 * Serializes seeds of one id until the transaction ends. Media buy ids are the whole seller's, so
 * theirs is locked whichever account seeds it; creative ids are an account's.
 */
export async function lockSeed(tx: Queryable, kind: SeedKind, accountId: string, entityId: string): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, [JSON.stringify(['sales_test_seeds', kind, kind === 'media_buy' ? '' : accountId, entityId])]);
}

/** The fixture the account seeded this id with; undefined when it seeded none. */
export async function seededFixture(db: Queryable, kind: SeedKind, accountId: string, entityId: string): Promise<Record<string, unknown> | undefined> {
  const [row] = await db.query<{ fixture: Record<string, unknown> }>(`select fixture from sales_test_seeds where kind = $1 and account_id = $2 and entity_id = $3`, [kind, accountId, entityId]);
  return row?.fixture;
}

export async function recordSeed(tx: Queryable, kind: SeedKind, accountId: string, entityId: string, fixture: Record<string, unknown>, now: Date): Promise<void> {
  await tx.query(`insert into sales_test_seeds (kind, account_id, entity_id, fixture, seeded_at) values ($1, $2, $3, $4, $5)`, [kind, accountId, entityId, JSON.stringify(fixture), now]);
}
