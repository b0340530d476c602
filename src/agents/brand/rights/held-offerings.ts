import type { Queryable } from '../../../db/database.ts';
import { NotifiedCache } from '../../../db/notified-cache.ts';
import type { TenantRouteDeps } from '../../runtime/index.ts';
import * as sql from './sql.ts';

/**
 * Which of the roster's exclusive offerings a grant holds, by day, as get_rights shows it: kept in
 * memory once started, and emptied on every instance by any committed change to the grants
 * (migration 0051). acquire_rights decides under its lock from the table itself, never from here.
 */
export class HeldOfferings {
  private cache: NotifiedCache | undefined;
  private readonly exclusive: readonly string[];

  constructor(exclusive: readonly string[]) {
    this.exclusive = exclusive;
  }

  start = async ({ db, clock }: TenantRouteDeps): Promise<void> => {
    const cache = new NotifiedCache(db, clock, { channel: 'ap_rights', ttlMs: 300_000, maxEntries: 16 });
    this.cache = cache;
    await cache.start();
  };

  stop = async (): Promise<void> => this.cache?.stop();

  /** The held exclusive offerings on `today` (YYYY-MM-DD). */
  async on(db: Queryable, today: string): Promise<ReadonlySet<string>> {
    const load = async () => ({ value: await sql.heldOfferings(db, this.exclusive, today) });
    if (!this.cache) return (await load()).value;
    return (await this.cache.get(today, load))!;
  }
}
