import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/database.ts';
import { BackgroundPass } from '../../jobs/background-pass.ts';
import { deleteOlderThan } from './sql.ts';

const batch = 5000;
const dayMs = 24 * 60 * 60 * 1000;

/**
 * Deletes events older than the retention window, in batches so no statement holds locks for
 * long, keeping the newest event whatever its age. Several instances may run it at once: a row is
 * deleted once, the others find it gone. Returns how many events it deleted.
 */
export async function pruneFeed(db: Database, clock: Clock, retentionDays: number): Promise<number> {
  const before = new Date(clock.now().getTime() - retentionDays * dayMs);
  let total = 0;
  for (;;) {
    const deleted = await deleteOlderThan(db, before, batch);
    total += deleted;
    if (deleted < batch) return total;
  }
}

/** `pruneFeed` as a background pass: `start` runs it now and every `intervalMs`, `stop` ends it. */
export function retentionJob(
  db: Database,
  clock: Clock,
  retentionDays: number,
  intervalMs: number,
  log: FastifyBaseLogger,
): BackgroundPass {
  return new BackgroundPass(
    async () => {
      const deleted = await pruneFeed(db, clock, retentionDays);
      if (deleted > 0) log.info({ deleted, retentionDays }, 'feed retention deleted old events');
    },
    (err) => log.error({ err }, 'feed retention failed; it runs again at the next interval'),
    intervalMs,
  );
}
