import type { Config } from '../config.ts';
import type { Database } from './database.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/** PostgreSQL when a URL is configured, else PGlite in the data directory. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'poolMax'>): Promise<Database> {
  if (config.databaseUrl) return openPostgres({ url: config.databaseUrl, poolMax: config.poolMax });
  return openPglite({ dataDir: config.dataDir });
}
