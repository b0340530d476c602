import { runAdminCommand, type AdminRunner, type AdminServices } from '../admin/commands.ts';
import { systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import { skipWasmTierUp } from '../db/pglite.ts';
import { parseAllowList } from '../net/allow-list.ts';
import { SafeFetch } from '../net/safe-fetch.ts';
import { Crawler } from '../registry/crawler/index.ts';
import { scheduleProbe } from '../registry/agents/index.ts';

/** An admin session against the database itself (see withAdmin): opened and migrated once, closed when `use` is done. */
export async function withLocalAdmin<T>(config: Config, use: (run: AdminRunner) => Promise<T>): Promise<T> {
  skipWasmTierUp();
  const db = await openDatabase(config);
  const local = localServices(config, db);
  try {
    await migrate(db, await loadMigrations());
    return await use((command, args) => runAdminCommand(db, command, args, local.services));
  } finally {
    try {
      await local.close();
    } finally {
      await db.close();
    }
  }
}

/** The CLI's own services, built on first use: a crawler with a fetch client from the configuration. */
function localServices(config: Config, db: Database): { services: AdminServices; close(): Promise<void> } {
  let fetcher: SafeFetch | undefined;
  let crawler: Crawler | undefined;
  return {
    services: {
      // The first probe is queued with the enrollment; a running instance's prober finds it when it polls.
      enrollment: () => ({ db, clock: systemClock, config, onEnrolled: scheduleProbe }),
      crawler() {
        fetcher ??= new SafeFetch({ allow: parseAllowList(config.fetchAllow) });
        crawler ??= new Crawler({ db, fetcher, clock: systemClock, config: config.crawler });
        return crawler;
      },
    },
    close: async () => fetcher?.close(),
  };
}
