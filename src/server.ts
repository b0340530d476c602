import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { controlSocketPath } from './admin/control-client.ts';
import { closeControlSocket, openControlSocket } from './admin/control-socket.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { loadMigrations, migrate, type Migration } from './db/migrate.ts';
import { openDatabase } from './db/open.ts';
import { registerCors } from './http/cors.ts';
import { frameworkRefusals, registerErrorRendering } from './http/errors.ts';
import { registerHealth } from './http/health.ts';
import { boundJsonDepth, requireJsonWrites } from './http/json-writes.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerOpenApi } from './http/openapi.ts';
import { buildValidator, refuseUnstorableText } from './http/validation.ts';
import { buildSerializer } from './http/serialization.ts';
import { echoRequestId, requestId } from './http/request-id.ts';
import { baseUrl, listeningAddress } from './http/base-url.ts';
import { standardOutputLog } from './http/log-destination.ts';
import { logRequests } from './http/request-log.ts';
import { recordRoutes } from './http/route-table.ts';
import { resolveTxt } from 'node:dns/promises';
import { systemClock, type Clock } from './clock.ts';
import type { AppContext, TxtResolver } from './context.ts';
import { enforceRateLimits, openCounterStore } from './http/rate-limit/enforce.ts';
import { parseAllowList } from './net/allow-list.ts';
import { SafeFetch } from './net/safe-fetch.ts';
import { ApError } from './protocol/errors.ts';
// Capabilities, each through its one public face: its index.ts (lint refuses anything deeper).
import { agentsPlugin, servedAgents, testDeployment, type Tenant } from './agents/index.ts';
import { authPlugin, rateLimitCaller, type Authenticator } from './auth/index.ts';
import { dashboardPlugin } from './dashboard/index.ts';
import { adagentsToolsPlugin } from './registry/adagents-tools/index.ts';
import { agentProbePlugin } from './registry/agent-probe/index.ts';
import { agentCatalogPlugin, type OwnDeployment } from './registry/agents/index.ts';
import { applyHeldBrand, brandIdentity, brandsPlugin, type EnrichmentProvider } from './registry/brands/index.ts';
import { crawlerPlugin } from './registry/crawler/index.ts';
import { demoPlugin } from './registry/demo/index.ts';
import { feedPlugin } from './registry/feed/index.ts';
import { graphCatalogSnapshot, graphCollectionsSnapshot, graphSnapshot } from './registry/graph/index.ts';
import { backfillSkeletons, homographsPlugin, type ReviewAppliers } from './registry/homographs/index.ts';
import { lookupsPlugin } from './registry/lookups/index.ts';
import { registryMcpPlugin } from './registry/mcp/index.ts';
import { ownershipPlugin } from './registry/ownership/index.ts';
import { policiesPlugin, policySnapshot } from './registry/policies/index.ts';
import { applyHeldProperty, propertiesPlugin, propertySnapshot } from './registry/properties/index.ts';
import { publishersPlugin } from './registry/publishers/index.ts';
import { searchPlugin } from './registry/search/index.ts';
import { statsPlugin } from './registry/stats/index.ts';

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
 * The shared HTTP plumbing comes first, then each capability registers as a plugin with its
 * options; what one capability offers another (snapshot sections, review appliers) is handed over
 * here, through their public faces.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, migrations } = deps;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      stream: standardOutputLog(),
    },
    // One line per request, written by request-log.ts, instead of the framework's two.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestId,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // We answer 503 in the catalogue's shape ourselves while closing (see the preClose hook).
    return503OnClosing: false,
    // A URL the router cannot read, and a request the HTTP parser refuses, answer in the catalogue's shape too.
    ...frameworkRefusals,
    // The factory's published type is Ajv-compiler's own; ours has the same call shape.
    schemaController: { compilersFactory: { buildValidator: buildValidator as never, buildSerializer } },
  });

  // Route-level hooks attach as routes register, so these come before any route.
  recordRoutes(app);
  requireJsonWrites(app);
  boundJsonDepth(app);
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

  // Idle connections are closed at shutdown; a request that arrives on a busy keep-alive
  // connection meanwhile is told to go elsewhere, in the catalogue's shape.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    done(
      closing
        ? new ApError('service_unavailable', 'The server is shutting down; retry on another instance.')
        : undefined,
    );
  });
  logRequests(app);
  // Before any route: the OpenAPI generator only sees routes registered after it.
  await registerOpenApi(app, config.publicUrl);
  await registerCors(app);
  const metrics = registerMetrics(app, db);

  registerHealth(app, db, migrations);

  // First of the capabilities: its guard attaches to every route registered after it.
  await app.register(authPlugin, { ctx, authenticator: deps.authenticator });
  await app.register(brandsPlugin, { ctx, enrichment: deps.enrichment });
  await app.register(propertiesPlugin, { ctx });
  await app.register(policiesPlugin, { ctx });
  await app.register(feedPlugin, {
    ctx,
    snapshots: {
      registry: [propertySnapshot, ...graphSnapshot, policySnapshot],
      catalog: [propertySnapshot, ...graphCatalogSnapshot],
      collections: graphCollectionsSnapshot,
    },
    metrics,
  });
  await app.register(crawlerPlugin, { ctx, metrics });
  await app.register(lookupsPlugin, { ctx });
  await app.register(publishersPlugin);
  await app.register(statsPlugin, { ctx });
  // The agents served beside the registry: the demo enrolls them, the prober calls them with their credential.
  // The creative agents draw a referenced brand as the registry knows it.
  const tenants = deps.tenants ?? (await testDeployment(ctx, () => baseUrl(app, config), { brands: brandIdentity }));
  const own: OwnDeployment = {
    served: () => servedAgents(tenants, baseUrl(app, config)),
    listening: () => listeningAddress(app),
    credential: config.agents.testCredential,
  };
  await app.register(agentCatalogPlugin, { ctx, own });
  // After the catalog: its pages enroll agents with the catalog's enrollment (first probe queued).
  await app.register(dashboardPlugin, { ctx, enrollment: app.agentEnrollment });
  await app.register(demoPlugin, { ctx, own });
  await app.register(searchPlugin, { ctx });
  await app.register(agentProbePlugin, { ctx });
  await app.register(adagentsToolsPlugin, { ctx });
  await app.register(ownershipPlugin, { ctx });
  await app.register(homographsPlugin, {
    ctx,
    appliers: deps.reviewAppliers ?? { brand: applyHeldBrand(ctx), property: applyHeldProperty(ctx) },
  });
  await app.register(agentsPlugin, { ctx, tenants });
  // The read routes over MCP at /mcp: its tools are read from the routes above once the app is ready.
  await app.register(registryMcpPlugin, { ctx });

  app.addHook('onClose', async () => {
    if (!deps.fetcher) await fetcher.close();
    await db.close();
  });
  return app;
}

/** While this process holds an embedded database, the CLI reaches it through a socket (see admin/). */
async function serveControlSocket(app: FastifyInstance, config: Config, db: Database): Promise<void> {
  const path = controlSocketPath(config);
  if (!path) return;
  // A crawl asked for through the socket uses this server's crawler, so its fetch client and pacing.
  const socket = await openControlSocket(db, path, {
    crawler: () => app.crawler,
    enrollment: () => app.agentEnrollment,
  });
  app.addHook('preClose', async () => closeControlSocket(socket, path));
}

export interface RunningServer {
  app: FastifyInstance;
  /** Base URL the server listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  engine: Database['engine'];
  close(): Promise<void>;
}

/** Opens the database, applies migrations, builds the app and listens. Closing closes both. */
export async function startServer(config: Config, db?: Database): Promise<RunningServer> {
  const database = db ?? (await openDatabase(config));
  try {
    const migrations = await loadMigrations();
    await migrate(database, migrations);
    // Saves keep skeletons current; this fills them for entries written before, or from older data.
    await backfillSkeletons(database);
    const app = await buildApp({ config, db: database, migrations });
    await serveControlSocket(app, config, database);
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    return { app, url: `http://${host}:${port}`, engine: database.engine, close: () => app.close() };
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
}
