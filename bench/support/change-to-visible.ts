import { Pool } from 'undici';
import type { Database } from '../../src/db/database.ts';
import { publishAdagents } from '../../test/support/authorization-world.ts';
import { liveAdagents, liveCheckPath, livePublisher } from './lookup-world.ts';

/**
 * Grant/revoke commits one after another, each a crawler-style commit of a live publisher's file
 * (granting or dropping the live agent), timed from the moment the commit returns until the server
 * at `url` (another instance, a mirror) answers the new status, asked back to back.
 */
export async function changeToVisible(
  db: Database,
  url: string,
  options: { changes: number; publishers: number; where: string },
): Promise<{ latencies: number[]; polls: number }> {
  const pool = new Pool(url, { connections: 1 });
  const status = async (k: number) => {
    const res = await pool.request({ path: liveCheckPath(k), method: 'GET' });
    const body = (await res.body.json()) as { result: { status: string } };
    return body.result.status;
  };
  try {
    const granted = Array.from({ length: options.publishers }, () => false);
    for (let k = 0; k < options.publishers; k++)
      if ((await status(k)) !== 'unauthorized') throw new Error(`${livePublisher(k)} should start unauthorized`);
    const latencies: number[] = [];
    let polls = 0;
    for (let change = 0; change < options.changes; change++) {
      const k = change % options.publishers;
      granted[k] = !granted[k];
      const expected = granted[k] ? 'authorized' : 'unauthorized';
      await publishAdagents(db, livePublisher(k), liveAdagents(k, granted[k]));
      const committed = performance.now();
      for (;;) {
        polls++;
        if ((await status(k)) === expected) break;
        if (performance.now() - committed > 30_000)
          throw new Error(
            `change ${change} (${expected} for ${livePublisher(k)}) not visible on ${options.where} after 30 s`,
          );
      }
      latencies.push(performance.now() - committed);
    }
    return { latencies, polls };
  } finally {
    await pool.close();
  }
}

export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((q / 100) * sorted.length))]!;
}
