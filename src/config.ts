/**
 * Configuration, from command-line flags over environment variables over defaults. Each capability
 * declares its own settings (the variables it reads, their defaults, how each is checked) in its
 * `settings.ts`; this file only assembles them into the one `Config` the composition root hands
 * around, and checks every value at start, so a typo fails loudly instead of running with a
 * surprise. A settings file imports nothing of its capability, so reading the configuration loads
 * no capability; files a setting names are read by the capability that uses them, when it
 * registers (so a bad file still stops the start).
 */
import { agentsSettings, type AgentsConfig } from './agents/settings.ts';
import { processSettings, runsBackgroundWork, type ProcessSettings } from './app/settings.ts';
import { authLimits, authSettings, type AuthLimits, type AuthSettings } from './auth/settings.ts';
import { databaseSettings, type DatabaseSettings } from './db/settings.ts';
import { httpSettings, type HttpSettings } from './http/settings.ts';
import { mirrorSettings } from './mirror/settings.ts';
import { netSettings, type NetSettings } from './net/settings.ts';
import { adagentsToolsLimits, type AdagentsToolsLimits } from './registry/adagents-tools/settings.ts';
import { agentProbeLimits, type AgentProbeLimits } from './registry/agent-probe/settings.ts';
import { agentCatalogSettings, type AgentCatalogSettings } from './registry/agents/settings.ts';
import { brandsLimits, brandsSettings, type BrandsLimits, type BrandsSettings } from './registry/brands/settings.ts';
import { crawlerLimits, crawlerSettings, type CrawlerConfig, type CrawlerLimits } from './registry/crawler/settings.ts';
import { demoSettings, loadDemoSettings, type DemoSettings } from './registry/demo/settings.ts';
import { feedSettings, type FeedConfig } from './registry/feed/settings.ts';
import { homographsSettings, type HomographsSettings } from './registry/homographs/settings.ts';
import { lookupsSettings, type LookupsSettings } from './registry/lookups/settings.ts';
import { ownershipSettings, type OwnershipSettings } from './registry/ownership/settings.ts';
import { registryLimits, type RegistryLimits } from './registry/settings.ts';
import type { Env } from './settings.ts';

export interface Config
  extends
    ProcessSettings,
    HttpSettings,
    DatabaseSettings,
    NetSettings,
    AuthSettings,
    OwnershipSettings,
    HomographsSettings,
    LookupsSettings,
    DemoSettings,
    AgentCatalogSettings,
    BrandsSettings {
  /** Whether this instance runs the background work (its role is not `web`). */
  background: boolean;
  limits: Limits;
  feed: FeedConfig;
  agents: AgentsConfig;
  crawler: CrawlerConfig;
}

/** Rate limits (spec section 8), per window, each declared by the capability whose routes have it. */
export type Limits = RegistryLimits &
  AuthLimits &
  CrawlerLimits &
  BrandsLimits &
  AgentProbeLimits &
  AdagentsToolsLimits;

export interface ConfigFlags {
  /** `ap serve --role`. */
  processRole?: string;
  port?: string;
  host?: string;
  databaseUrl?: string;
  dataDir?: string;
}

/** The environment variables, with their meaning and default; the README's table is this one. */
export const envVars = {
  ...processSettings.table,
  ...httpSettings.table,
  ...databaseSettings.table,
  ...netSettings.table,
  ...authSettings.table,
  ...authLimits.table,
  ...ownershipSettings.table,
  ...homographsSettings.table,
  ...lookupsSettings.table,
  ...demoSettings.table,
  ...registryLimits.table,
  ...feedSettings.table,
  ...agentsSettings.table,
  ...agentCatalogSettings.table,
  ...crawlerSettings.table,
  ...crawlerLimits.table,
  ...agentProbeLimits.table,
  ...adagentsToolsLimits.table,
  ...brandsLimits.table,
  ...brandsSettings.table,
  // `ap mirror`'s own (it reads the HTTP server's and the fetch client's above too).
  ...mirrorSettings.table,
};

export function loadConfig(flags: ConfigFlags = {}, env: Env = process.env): Config {
  const database = databaseSettings.load(env, flags);
  const instance = processSettings.load(env, flags);
  // A web instance leaves the background work to the workers, whatever each worker setting says.
  const background = runsBackgroundWork(instance);
  const catalog = agentCatalogSettings.load(env);
  const crawler = crawlerSettings.load(env);
  return {
    ...instance,
    background,
    ...httpSettings.load(env, flags),
    ...database,
    ...authSettings.load(env),
    ...ownershipSettings.load(env),
    ...homographsSettings.load(env),
    ...netSettings.load(env),
    ...lookupsSettings.load(env),
    ...loadDemoSettings(env, database.databaseUrl),
    limits: {
      ...registryLimits.load(env),
      ...authLimits.load(env),
      ...crawlerLimits.load(env),
      ...brandsLimits.load(env),
      ...agentProbeLimits.load(env),
      ...adagentsToolsLimits.load(env),
    },
    feed: feedSettings.load(env),
    agents: agentsSettings.load(env),
    crawler: { ...crawler, worker: crawler.worker && background },
    ...catalog,
    probeWorker: catalog.probeWorker && background,
    profileEvents: catalog.profileEvents && background,
    ...brandsSettings.load(env),
  };
}

// Where callers have always found these; each is declared by its capability.
export { ConfigError } from './settings.ts';
export { publicTestCredential } from './agents/settings.ts';
export type { AgentsConfig, CrawlerConfig, FeedConfig };
export type { IdentityConfig } from './auth/settings.ts';
export type { BrandDataProviderConfig } from './registry/brands/settings.ts';
