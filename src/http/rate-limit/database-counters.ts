import type { Database } from '../../db/database.ts';
import type { CounterStore } from './counter-store.ts';

/**
 * Counters in the database (`rate_limit_counters`), so a limit holds across every instance that
 * shares it. Windows are aligned to the epoch (a 60 s window starts on the minute) by the
 * database's clock, so every instance agrees on them. One upsert per hit.
 */
export function databaseCounters(db: Database, { sweepEveryMs = 60_000 }: { sweepEveryMs?: number } = {}): CounterStore {
  // Passed windows are useless; clear them now and then so the table stays small.
  const sweep = setInterval(() => void db.query(SWEEP).catch(() => {}), sweepEveryMs);
  sweep.unref();
  return {
    async hit(key, windowSeconds) {
      const [row] = await db.query<{ hits: number; retry_after: number }>(HIT, [key, windowSeconds]);
      return { hits: row!.hits, retryAfterSeconds: row!.retry_after };
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

const HIT = `
  insert into rate_limit_counters as c (key, window_start, hits)
  values ($1, to_timestamp(floor(extract(epoch from now()) / $2) * $2), 1)
  on conflict (key, window_start) do update set hits = c.hits + 1
  returning hits, ceil(extract(epoch from window_start) + $2 - extract(epoch from now()))::int as retry_after`;

const SWEEP = `delete from rate_limit_counters where window_start < now() - interval '2 days'`;
