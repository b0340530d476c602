import type { Database } from '../../db/database.ts';
import { BackgroundPass } from '../../jobs/background-pass.ts';
import type { CounterStore } from './counter-store.ts';

/**
 * Sliding logs in the database (`rate_limit_log`), so a limit holds across every instance that
 * shares it. One upsert per request: it drops the hits that left the window, and appends this one
 * only if there is room, under the key's row lock, so concurrent requests on any instance are
 * counted one after the other. Times come from the caller's clock (instances keep theirs in
 * step with NTP; a skew of a few milliseconds moves a limit's edge by as much).
 */
export function databaseCounters(
  db: Database,
  { sweepEveryMs = 60_000, now = Date.now }: { sweepEveryMs?: number; now?: () => number } = {},
): CounterStore & { sweeps: BackgroundPass } {
  // Rows whose hits have all left their window are useless; clear them now and then. A pass, so a
  // test can await one (`sweeps.nextPass()`); a failed one is left to the next.
  const sweeps = new BackgroundPass(
    async () => void (await db.query(SWEEP, [now()])),
    () => {},
  );
  const timer = setInterval(() => sweeps.wake(), sweepEveryMs);
  timer.unref();
  return {
    sweeps,
    async take(key, max, windowMs, nowMs) {
      if (max < 1) return { taken: false, retryAfterMs: windowMs };
      const [row] = await db.query<{ taken: boolean; retry_after_ms: number }>(TAKE, [
        key,
        Math.floor(nowMs),
        windowMs,
        max,
      ]);
      return row!.taken
        ? { taken: true, slot: String(Math.floor(nowMs)) }
        : { taken: false, retryAfterMs: Number(row!.retry_after_ms) };
    },
    async giveBack(key, slot) {
      await db.query(GIVE_BACK, [key, slot]);
    },
    async close() {
      clearInterval(timer);
      await sweeps.stop();
    },
  };
}

// $1 key, $2 now (ms), $3 window (ms), $4 max. `live` is the log without the hits that left it.
const LIVE = `array(select h from unnest(l.hits) h where h > $2::bigint - $3 order by h)`;
const TAKE = `
  insert into rate_limit_log as l (key, hits, taken, expires_at)
  values ($1, array[$2::bigint], true, $2::bigint + $3)
  on conflict (key) do update set
    hits = case when cardinality(${LIVE}) < $4 then ${LIVE} || $2::bigint else ${LIVE} end,
    taken = cardinality(${LIVE}) < $4,
    expires_at = case when cardinality(${LIVE}) < $4 then greatest(l.expires_at, $2::bigint + $3) else l.expires_at end
  returning taken,
    -- Room comes back when the hit that puts the log at $4 leaves the window.
    case when taken then 0 else hits[cardinality(hits) - $4 + 1] + $3 - $2::bigint end as retry_after_ms`;

// Two hits at the same millisecond are the same entry to the log, so removing either is right.
const GIVE_BACK = `
  update rate_limit_log set hits = hits[:array_position(hits, $2::bigint) - 1] || hits[array_position(hits, $2::bigint) + 1:]
  where key = $1 and $2::bigint = any(hits)`;

const SWEEP = `delete from rate_limit_log where expires_at < $1`;
