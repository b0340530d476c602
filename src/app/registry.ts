import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { AppContext } from '../context.ts';
import type { Readiness } from '../http/health.ts';
import { dashboardPlugin } from '../dashboard/index.ts';
import { adagentsToolsPlugin } from '../registry/adagents-tools/index.ts';
import { agentProbePlugin } from '../registry/agent-probe/index.ts';
import {
  agentCatalogPlugin,
  agentCatalogSchemas,
  createAgentCatalog,
  type OwnDeployment,
} from '../registry/agents/index.ts';
import {
  applyHeldBrand,
  brandResolutions,
  brandSchemas,
  brandsPlugin,
  type EnrichmentProvider,
} from '../registry/brands/index.ts';
import { createCrawler, crawlerPlugin } from '../registry/crawler/index.ts';
import { createDemoAgents, demoPlugin, type FirstRun } from '../registry/demo/index.ts';
import { entrySchemas } from '../registry/entries/index.ts';
import { createFeed, feedPlugin, feedSchemas } from '../registry/feed/index.ts';
import { graphCatalogSnapshot, graphCollectionsSnapshot, graphSnapshot } from '../registry/graph/index.ts';
import { homographSchemas, homographsPlugin, type ReviewAppliers } from '../registry/homographs/index.ts';
import { createAuthorizationIndex, lookupSchemas, lookupsPlugin } from '../registry/lookups/index.ts';
import { ownershipPlugin } from '../registry/ownership/index.ts';
import { policiesPlugin, policySchemas, policySnapshot } from '../registry/policies/index.ts';
import {
  applyHeldProperty,
  propertiesPlugin,
  propertySchemas,
  propertyResolutions,
  propertySnapshot,
} from '../registry/properties/index.ts';
import { publishersPlugin } from '../registry/publishers/index.ts';
import { searchPlugin } from '../registry/search/index.ts';
import { createRegistrySummary, statsPlugin } from '../registry/stats/index.ts';
import { register } from './register.ts';
import type { RootServices } from './services.ts';

/**
 * The registry's services the agents read too, built before the tenants that are handed them:
 * the change feed and the authorization index that follows it (started by their plugins).
 */
export interface RegistryCore {
  feed: ReturnType<typeof createFeed>;
  authorization: ReturnType<typeof createAuthorizationIndex>;
}

export function createRegistryCore(ctx: AppContext, log: FastifyBaseLogger): RegistryCore {
  const feed = createFeed(ctx, log);
  return { feed, authorization: createAuthorizationIndex({ db: ctx.db, hub: feed.hub, log }) };
}

export interface RegistryDeps {
  ctx: AppContext;
  core: RegistryCore;
  metrics: Registry;
  readiness: Readiness;
  /** The agents served beside the registry: the demo enrolls them, the prober calls them with their credential. */
  own: OwnDeployment;
  enrichment: EnrichmentProvider | undefined;
  reviewAppliers: ReviewAppliers | undefined;
}

/** The registry's services, as the root decorates them. */
export type RegistryServices = Omit<
  RootServices,
  'routeTable' | 'readiness' | 'taskWorker' | 'webhookDeliverer' | 'agentPasses'
>;

/**
 * The registry's capabilities, each an encapsulated plugin handed the services it uses, built
 * here once, each before the first plugin that needs it. The order of registration is also the
 * order of their `onReady` hooks: the feed's hub listens before the index follows it.
 */
export async function registerRegistry(app: FastifyInstance, deps: RegistryDeps): Promise<RegistryServices> {
  const { ctx, metrics, readiness, own } = deps;
  const { feed } = deps.core;
  // App-wide, as other capabilities' answers (and the MCP tools' input schemas) refer to them.
  const shared = [
    ...brandSchemas,
    ...entrySchemas,
    ...propertySchemas,
    ...policySchemas,
    ...feedSchemas,
    ...lookupSchemas,
    ...agentCatalogSchemas,
    ...homographSchemas,
  ];
  for (const schema of shared) app.addSchema(schema);

  await register(app, brandsPlugin, { ctx, enrichment: deps.enrichment });
  await register(app, propertiesPlugin, { ctx });
  await register(app, policiesPlugin, { ctx });
  await register(app, feedPlugin, {
    ctx,
    feed,
    snapshots: {
      registry: [propertySnapshot, ...graphSnapshot, policySnapshot, brandResolutions, propertyResolutions],
      catalog: [propertySnapshot, ...graphCatalogSnapshot],
      collections: graphCollectionsSnapshot,
    },
    metrics,
  });
  const crawler = createCrawler(ctx, metrics);
  await register(app, crawlerPlugin, { ctx, crawler });
  const { index, members } = deps.core.authorization;
  await register(app, lookupsPlugin, {
    clock: ctx.clock,
    cacheEntries: ctx.config.lookupCacheEntries,
    index,
    members,
    readiness,
  });
  await register(app, publishersPlugin, { index });
  const summary = createRegistrySummary(ctx, app.log);
  await register(app, statsPlugin, { index, summary });
  const catalog = createAgentCatalog({ ctx, index, members, own, log: app.log });
  await register(app, agentCatalogPlugin, { ctx, catalog, index, hub: feed.hub, readiness });
  await register(app, dashboardPlugin, { ctx, enrollment: catalog.enrollment });
  const demoAgents = createDemoAgents(ctx, own, catalog.enrollment);
  const firstRun: FirstRun = {};
  await register(app, demoPlugin, {
    ctx,
    agents: demoAgents,
    readiness,
    recount: () => summary.refresh(),
    firstRun,
  });
  await register(app, searchPlugin, { ctx });
  await register(app, agentProbePlugin, { ctx });
  await register(app, adagentsToolsPlugin, { ctx, index });
  await register(app, ownershipPlugin, { ctx });
  await register(app, homographsPlugin, {
    ctx,
    appliers: deps.reviewAppliers ?? { brand: applyHeldBrand(ctx), property: applyHeldProperty(ctx) },
  });
  return {
    feedHub: feed.hub,
    feedRetention: feed.retention,
    authorizationIndex: index,
    crawler,
    registrySummary: summary,
    agentEnrollment: catalog.enrollment,
    agentSearch: catalog.search,
    agentProber: catalog.prober,
    demoAgents: demoAgents?.enrolled,
    firstRun,
  };
}
