import { integer, optional, settings, text, type Loaded } from '../settings.ts';

/** Which database engine, where its files or server are, and how many connections. */
export const databaseSettings = settings({
  /** PostgreSQL connection string; when absent the embedded PGlite engine is used. */
  databaseUrl: {
    env: 'DATABASE_URL',
    default: '',
    meaning: 'PostgreSQL connection string; unset uses embedded PGlite',
    parse: optional,
  },
  /** Where PGlite keeps its files (`memory://` for none). */
  dataDir: {
    env: 'DATA_DIR',
    default: './data',
    meaning: 'PGlite data directory (memory:// keeps nothing)',
    parse: text,
  },
  poolMax: { env: 'DATABASE_POOL_MAX', default: '10', meaning: 'PostgreSQL pool size', parse: integer(1, 1000) },
});

export type DatabaseSettings = Loaded<typeof databaseSettings>;
