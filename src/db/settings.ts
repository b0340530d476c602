import { integer, nonEmpty, reader, type Env, type Setting } from '../settings.ts';

/** Which database engine, where its files or server are, and how many connections. */
export interface DatabaseSettings {
  /** PostgreSQL connection string; when absent the embedded PGlite engine is used. */
  databaseUrl: string | undefined;
  /** Where PGlite keeps its files (`memory://` for none). */
  dataDir: string;
  poolMax: number;
}

export const databaseSettings = {
  DATABASE_URL: { default: '', meaning: 'PostgreSQL connection string; unset uses embedded PGlite' },
  DATA_DIR: { default: './data', meaning: 'PGlite data directory (memory:// keeps nothing)' },
  DATABASE_POOL_MAX: { default: '10', meaning: 'PostgreSQL pool size' },
} as const satisfies Record<string, Setting>;

export function loadDatabaseSettings(flags: { databaseUrl?: string; dataDir?: string }, env: Env): DatabaseSettings {
  const get = reader(databaseSettings, env);
  return {
    databaseUrl: nonEmpty(get('DATABASE_URL', flags.databaseUrl)),
    dataDir: get('DATA_DIR', flags.dataDir),
    poolMax: integer('DATABASE_POOL_MAX', get('DATABASE_POOL_MAX'), 1, 1000),
  };
}
