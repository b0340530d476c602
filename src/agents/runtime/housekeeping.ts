import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/database.ts';
import { pruneRecords } from './idempotency/service.ts';
import { deleteFinishedBefore } from './tasks/sql.ts';
import { deleteSettledBefore } from './webhooks/sql.ts';

/**
 * How many replay windows the agents keep what they have finished with: idempotency tombstones (a
 * late retry learns its key expired), finished tasks (a replayed `task_id` can still be polled)
 * and settled webhooks (for an operator's questions).
 */
const keptForWindows = 7;

/** Deletes what is older than `keptForWindows` replay windows; returns how many rows of each. */
export async function pruneAgentRecords(
  db: Database,
  clock: Clock,
  replayTtlSeconds: number,
): Promise<{ idempotency: number; tasks: number; webhooks: number }> {
  const before = new Date(clock.now().getTime() - keptForWindows * replayTtlSeconds * 1000);
  return {
    idempotency: await pruneRecords(db, before),
    tasks: await deleteFinishedBefore(db, before),
    webhooks: await deleteSettledBefore(db, before),
  };
}
