import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { SafeFetch } from './net/safe-fetch.ts';

/** What the composition root hands every capability. */
export interface AppContext {
  config: Config;
  db: Database;
  /** The SSRF-safe client; every fetch of a user-supplied domain goes through it. */
  fetcher: SafeFetch;
  clock: Clock;
  /** DNS TXT lookups (ownership proofs); tests point it at a DNS server on loopback. */
  resolveTxt: TxtResolver;
}

export type TxtResolver = (name: string) => Promise<string[][]>;
