import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { SafeFetch } from './net/safe-fetch.ts';

/** What the composition root hands every capability. */
export interface AppContext {
  config: Config;
  db: Database;
  /** The SSRF-safe client; every fetch of a user-supplied domain goes through it. */
  fetcher: SafeFetch;
}
