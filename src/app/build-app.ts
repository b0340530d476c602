import { resolveTxt } from 'node:dns/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Tenant } from '../agents/index.ts';
import { rateLimitCaller, registerAuth, type Authenticator } from '../auth/index.ts';
import { systemClock, type Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { AppContext, TxtResolver } from '../context.ts';
import type { Database } from '../db/database.ts';
import type { Migration } from '../db/migrate.ts';
import { registerCors } from '../http/cors.ts';
import { registerErrorRendering } from '../http/errors.ts';
import { registerHealth } from '../http/health.ts';
import { boundJsonBodies, requireJsonWrites } from '../http/json-writes.ts';
import { registerMetrics } from '../http/metrics.ts';
import { registerOpenApi } from '../http/openapi.ts';
import { enforceRateLimits, openCounterStore } from '../http/rate-limit/enforce.ts';
import { echoRequestId } from '../http/request-id.ts';
import { logRequests } from '../http/request-log.ts';
import { recordRoutes } from '../http/route-table.ts';
import { serverOptions } from '../http/server-options.ts';
import { refuseWhileClosing } from '../http/shutdown-gate.ts';
import { refuseUnstorableText } from '../http/validation.ts';
import { parseAllowList } from '../net/allow-list.ts';
import { SafeFetch } from '../net/safe-fetch.ts';
import type { EnrichmentProvider } from '../registry/brands/index.ts';
import type { ReviewAppliers } from '../registry/homographs/index.ts';
import { pagesPlugin } from '../pages/index.ts';
import { registryMcpPlugin } from '../registry/mcp/index.ts';
import { agentTenants, ownDeployment, registerAgents } from './agents.ts';
import { register } from './register.ts';
import { createRegistryCore, registerRegistry } from './registry.ts';
import { decorateServices } from './services.ts';

export interface AppDeps {
  config: Config;
  db: Database;
  migrations: Migration[];
  /** Replaces the fetch client built from the configuration (tests inject a resolver). */
  fetcher?: SafeFetch;
  authenticator?: Authenticator;
  enrichment?: EnrichmentProvider;
  clock?: Clock;
  resolveTxt?: TxtResolver;
  /** Replaces what applies approved held saves (tests observe decisions with fakes). */
  reviewAppliers?: ReviewAppliers;
  /** Agents to serve (each at its own path, over MCP). */
  tenants?: Tenant[];
}

/**
 * The composition root: builds the whole HTTP application from its configuration and database.
 * The app-wide plumbing comes first on the root (src/http/, then auth's guard), then each
 * capability registers as an encapsulated plugin, handed the services it uses as options: they
 * are built here once (registry.ts, agents.ts), each before its first user, so no capability
 * reads another's decorator. The root app is decorated with them last, for tests and tooling.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, migrations } = deps;
  const app = Fastify(serverOptions(config));

  // Route-level hooks attach as routes register, so these come before any route (and any context).
  const routeTable = recordRoutes(app);
  requireJsonWrites(app);
  boundJsonBodies(app);
  refuseUnstorableText(app);
  const fetcher = deps.fetcher ?? new SafeFetch({ allow: parseAllowList(config.fetchAllow) });
  const ctx: AppContext = {
    config,
    db,
    fetcher,
    clock: deps.clock ?? systemClock,
    resolveTxt: deps.resolveTxt ?? resolveTxt,
  };
  enforceRateLimits(app, openCounterStore(config, db, app.log, ctx.clock), rateLimitCaller, ctx.clock);
  registerErrorRendering(app);
  echoRequestId(app);
  refuseWhileClosing(app);
  logRequests(app);
  // Before any route: the OpenAPI generator only sees routes registered after it.
  await registerOpenApi(app, config.publicUrl);
  await registerCors(app);
  const metrics = registerMetrics(app, db);
  const readiness = registerHealth(app, db, migrations);
  // Before any capability: its guard attaches to every route registered after it.
  const agentResources = await registerAuth(app, { ctx, authenticator: deps.authenticator });

  const core = createRegistryCore(ctx, app.log);
  const tenants = await agentTenants(app, ctx, deps.tenants, core);
  const own = ownDeployment(app, ctx, tenants);
  const registry = await registerRegistry(app, {
    ctx,
    core,
    metrics,
    readiness,
    own,
    enrichment: deps.enrichment,
    reviewAppliers: deps.reviewAppliers,
  });
  const agents = await registerAgents(app, { ctx, tenants, resources: agentResources });
  // The read routes over MCP at /mcp: its tools are read from the route table once the app is ready.
  await register(app, registryMcpPlugin, { ctx, routes: routeTable });
  // The pages people browse, reading the API's routes registered above.
  await register(app, pagesPlugin, { own, fetcher });

  app.addHook('onClose', async () => {
    if (!deps.fetcher) await fetcher.close();
    await db.close();
  });
  decorateServices(app, { routeTable, readiness, ...registry, ...agents });
  return app;
}
