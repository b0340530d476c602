import type { Queryable } from '../../../db/database.ts';
import { firstRow } from '../../../db/first-row.ts';
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
  return firstRow<ForcedArm>(
    db,
    `delete from sales_forced_create_arms where account_id = $1 returning arm, task_id, message`,
    [accountId],
  );
}

export type SeedKind = 'creative' | 'media_buy' | 'product' | 'pricing_option' | 'creative_format' | 'plan';

/** A seed's key in its account: pricing options are their product's (`parent`), the rest have none (''). */
export interface SeedKey {
  kind: SeedKind;
  accountId: string;
  parent?: string;
  entityId: string;
}

/**
 * Serializes seeds of one id until the transaction ends. Media buy ids are the whole seller's, so
 * theirs is locked whichever account seeds it; the others' ids are an account's.
 */
export async function lockSeed(tx: Queryable, key: SeedKey): Promise<void> {
  const scope = key.kind === 'media_buy' ? '' : key.accountId;
  await tx.query(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, [
    JSON.stringify(['sales_test_seeds', key.kind, scope, key.parent ?? '', key.entityId]),
  ]);
}

/** The fixture the account seeded this id with; undefined when it seeded none. */
export async function seededFixture(db: Queryable, key: SeedKey): Promise<Record<string, unknown> | undefined> {
  const [row] = await db.query<{ fixture: Record<string, unknown> }>(
    `select fixture from sales_test_seeds where kind = $1 and account_id = $2 and parent_id = $3 and entity_id = $4`,
    [key.kind, key.accountId, key.parent ?? '', key.entityId],
  );
  return row?.fixture;
}

export async function recordSeed(
  tx: Queryable,
  key: SeedKey,
  fixture: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await tx.query(
    `insert into sales_test_seeds (kind, account_id, parent_id, entity_id, fixture, seeded_at) values ($1, $2, $3, $4, $5, $6)`,
    [key.kind, key.accountId, key.parent ?? '', key.entityId, JSON.stringify(fixture), now],
  );
}

/** A seed the account's catalog reads: a product, a pricing option (of `parent_id`) or a creative format. */
export interface CatalogSeed {
  kind: 'product' | 'pricing_option' | 'creative_format';
  parent_id: string;
  entity_id: string;
  fixture: Record<string, unknown>;
}

/** The account's catalog seeds, in the order they were seeded. */
export async function catalogSeeds(db: Queryable, accountId: string): Promise<CatalogSeed[]> {
  return db.query<CatalogSeed>(
    `select kind, parent_id, entity_id, fixture from sales_test_seeds
     where account_id = $1 and kind in ('product', 'pricing_option', 'creative_format') order by seeded_at, kind, parent_id, entity_id`,
    [accountId],
  );
}
