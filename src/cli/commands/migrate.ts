import { Command } from 'commander';
import { loadConfig, type ConfigFlags } from '../../config.ts';
import { loadMigrations, migrate } from '../../db/migrate.ts';
import { openDatabase } from '../../db/open.ts';
import { skipWasmTierUp } from '../../db/pglite.ts';
import { withDatabaseOptions } from './database-options.ts';

export function migrateCommand(): Command {
  return withDatabaseOptions(new Command('migrate').description('Apply pending database migrations and exit')).action(
    async (flags: ConfigFlags) => {
      const config = loadConfig(flags);
      skipWasmTierUp();
      const db = await openDatabase(config);
      try {
        const applied = await migrate(db, await loadMigrations());
        const names = applied.map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`);
        console.log(applied.length === 0 ? `${db.engine}: up to date` : `${db.engine}: applied ${names.join(', ')}`);
      } finally {
        await db.close();
      }
    },
  );
}
