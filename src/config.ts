/**
 * Configuration, from command-line flags over environment variables over defaults. Each capability
 * declares its own settings (the variables it reads, their defaults, how each is checked) in its
 * `settings.ts`; this file only assembles them into the one `Config` the composition root hands
 * around, and checks every value at start, so a typo fails loudly instead of running with a
 * surprise. A settings file imports nothing of its capability, so reading the configuration loads
 * no capability; files a setting names are read by the capability that uses them, when it
 * registers (so a bad file still stops the start).
 */
import { agentsSettings, loadAgentsSettings, type AgentsConfig } from './agents/settings.ts';
import { authSettings, loadAuthLimits, loadAuthSettings, type AuthLimits, type AuthSettings } from './auth/settings.ts';
import { databaseSettings, loadDatabaseSettings, type DatabaseSettings } from './db/settings.ts';
import { httpSettings, loadHttpSettings, type HttpSettings } from './http/settings.ts';
import { loadNetSettings, netSettings, type NetSettings } from './net/settings.ts';
import {
  adagentsToolsSettings,
  loadAdagentsToolsLimits,
  type AdagentsToolsLimits,
} from './registry/adagents-tools/settings.ts';
import { agentProbeSettings, loadAgentProbeLimits, type AgentProbeLimits } from './registry/agent-probe/settings.ts';
import {
  agentCatalogSettings,
  loadAgentCatalogSettings,
  type AgentCatalogSettings,
} from './registry/agents/settings.ts';
import {
  brandsSettings,
  loadBrandsLimits,
  loadBrandsSettings,
  type BrandsLimits,
  type BrandsSettings,
} from './registry/brands/settings.ts';
import {
  crawlerSettings,
  loadCrawlerLimits,
  loadCrawlerSettings,
  type CrawlerConfig,
  type CrawlerLimits,
} from './registry/crawler/settings.ts';
import { demoSettings, loadDemoSettings, type DemoSettings } from './registry/demo/settings.ts';
import { feedSettings, loadFeedSettings, type FeedConfig } from './registry/feed/settings.ts';
import { homographsSettings, loadHomographsSettings, type HomographsSettings } from './registry/homographs/settings.ts';
import { loadLookupsSettings, lookupsSettings, type LookupsSettings } from './registry/lookups/settings.ts';
import { loadOwnershipSettings, ownershipSettings, type OwnershipSettings } from './registry/ownership/settings.ts';
import { loadRegistryLimits, registrySettings, type RegistryLimits } from './registry/settings.ts';
import type { Env } from './settings.ts';

export interface Config
  extends
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
  port?: string;
  host?: string;
  databaseUrl?: string;
  dataDir?: string;
}

/** The environment variables, with their meaning and default; the README's table is this one. */
export const envVars = {
  ...httpSettings,
  ...databaseSettings,
  ...netSettings,
  ...authSettings,
  ...ownershipSettings,
  ...homographsSettings,
  ...lookupsSettings,
  ...demoSettings,
  ...registrySettings,
  ...feedSettings,
  ...agentsSettings,
  ...agentCatalogSettings,
  ...crawlerSettings,
  ...agentProbeSettings,
  ...adagentsToolsSettings,
  ...brandsSettings,
} as const;

export function loadConfig(flags: ConfigFlags = {}, env: Env = process.env): Config {
  const database = loadDatabaseSettings(flags, env);
  return {
    ...loadHttpSettings(flags, env),
    ...database,
    ...loadAuthSettings(env),
    ...loadOwnershipSettings(env),
    ...loadHomographsSettings(env),
    ...loadNetSettings(env),
    ...loadLookupsSettings(env),
    ...loadDemoSettings(env, database.databaseUrl),
    limits: {
      ...loadRegistryLimits(env),
      ...loadAuthLimits(env),
      ...loadCrawlerLimits(env),
      ...loadBrandsLimits(env),
      ...loadAgentProbeLimits(env),
      ...loadAdagentsToolsLimits(env),
    },
    feed: loadFeedSettings(env),
    agents: loadAgentsSettings(env),
    crawler: loadCrawlerSettings(env),
    ...loadAgentCatalogSettings(env),
    ...loadBrandsSettings(env),
  };
}

// Where callers have always found these; each is declared by its capability.
export { ConfigError } from './settings.ts';
export { publicTestCredential } from './agents/settings.ts';
export type { AgentsConfig, CrawlerConfig, FeedConfig };
export type { IdentityConfig } from './auth/settings.ts';
export type { BrandDataProviderConfig } from './registry/brands/settings.ts';
