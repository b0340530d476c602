import type { Queryable } from '../../db/database.ts';

/** Every query of the demo registry: its lock, and whether the registry holds anything yet. */

/**
 * Serializes seeding across instances sharing one database (per schema, as migrations are): held
 * until the seeding transaction ends, so a second instance waits, then finds the data.
 */
export async function lockSeeding(tx: Queryable): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtext(current_schema() || '.ap_demo'))`);
}

/** Whether any brand, property entry, crawled publisher, policy or feed event exists: a registry in use. */
export async function hasData(tx: Queryable): Promise<boolean> {
  const [row] = await tx.query<{ used: boolean }>(
    `select exists (select 1 from brands) or exists (select 1 from properties)
       or exists (select 1 from publishers) or exists (select 1 from policies) or exists (select 1 from registry_events) as used`,
  );
  return row!.used;
}
