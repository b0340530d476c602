import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ConfigError } from '../config.ts';
import type { AppContext } from '../context.ts';
import { baseUrl } from '../http/base-url.ts';
import { BackgroundPass } from '../jobs/background-pass.ts';
import { isLoopbackHost } from '../net/address-policy.ts';
import { compileTaskSchemas } from '../protocol/schemas.ts';
import { listingRoutes } from './listing.ts';
import { keyRoutes } from './runtime/keys/routes.ts';
import { signatureLifetimeSeconds } from './runtime/keys/lifetime.ts';
import { currentKey, type KeySettings } from './runtime/keys/store.ts';
import { pruneAgentRecords } from './runtime/housekeeping.ts';
import { mountTenant, type Tenant } from './runtime/index.ts';
import { CatalogError, demoCatalogPath, loadCatalogFile, salesAgent } from './sales/index.ts';
import { demoSignalsPath, loadSignalsCatalog, signalsAgent, type PlatformSeat } from './signals/index.ts';
import { creativeAgent, creativeBuilderAgent, type BrandLookup } from './creative/index.ts';
import { TaskWorker } from './runtime/tasks/worker.ts';
import { WebhookDeliverer } from './runtime/webhooks/deliverer.ts';

export type { AgentTask, TaskContext, Tenant } from './runtime/index.ts';
export type { TaskEvent } from './runtime/tasks/worker.ts';
export type { DeliveryEvent } from './runtime/webhooks/deliverer.ts';
export { signatureLifetimeSeconds } from './runtime/keys/lifetime.ts';
export { rotate, type SigningAlg } from './runtime/keys/store.ts';
export { agentsSettings, publicTestCredential, type AgentsConfig } from './settings.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The long-task worker, so a test can `watch` its runs instead of polling; absent when no agent is served. */
    taskWorker?: TaskWorker;
    /** The webhook outbox's sender, so a test can `watch` its attempts instead of polling; absent when no agent is served. */
    webhookDeliverer?: WebhookDeliverer;
    /** The tenants' background passes by `<tenant>:<pass>`, so a test can wake one and await it; absent when no agent is served. */
    agentPasses?: ReadonlyMap<string, BackgroundPass>;
  }
}

/** What the registry hands the agents: the brands it knows, which creatives are drawn from. */
export interface DeploymentRegistry {
  brands?: BrandLookup;
}

/**
 * The agents `ap serve` mounts beside the registry (the spec's test deployment, path-routed):
 * none with AGENTS=false. Each accepts the deployment's public test credential.
 */
export async function testDeployment(
  ctx: AppContext,
  base: () => string,
  registry: DeploymentRegistry = {},
): Promise<Tenant[]> {
  const { agents } = ctx.config;
  if (!agents.serve) return [];
  const credentials = agents.testCredential
    ? [{ token: agents.testCredential, name: 'public-test', public: true }]
    : [];
  const brands = registry.brands;
  const sales = salesAgent({
    catalog: await catalogSetting('SALES_CATALOG', () => loadCatalogFile(agents.salesCatalog ?? demoCatalogPath)),
    base,
    credentials,
    testController: agents.testController,
    requireOperatorAuth: agents.salesRequireOperatorAuth,
    creativeBuilding: {
      fetcher: ctx.fetcher,
      previewTtlSeconds: agents.creativePreviewTtlSeconds,
      ...(brands ? { brands } : {}),
    },
  });
  const signals = signalsAgent({
    catalog: await catalogSetting('SIGNALS_CATALOG', () =>
      loadSignalsCatalog(agents.signalsCatalog ?? demoSignalsPath),
    ),
    base,
    credentials,
    seats: demoSeats,
    ...(agents.signalActivationSeconds === undefined ? {} : { activationMinutes: agents.signalActivationSeconds / 60 }),
    activationPollMs: Math.min(1000, Math.max(100, (agents.signalActivationSeconds ?? 1) * 200)),
  });
  const builderPath = '/creative-builder';
  const creative = creativeAgent({
    base,
    credentials,
    fetcher: ctx.fetcher,
    previewTtlSeconds: agents.creativePreviewTtlSeconds,
    ...(brands ? { brands } : {}),
    generator: () => `${base()}${builderPath}/mcp`,
  });
  // The creative agent serves /creative/assets, where the builder's generated assets are too.
  const builder = creativeBuilderAgent({
    base,
    path: builderPath,
    credentials,
    fetcher: ctx.fetcher,
    previewTtlSeconds: agents.creativePreviewTtlSeconds,
    servesAssets: false,
    ...(brands ? { brands } : {}),
  });
  return [sales, signals, creative, builder];
}

/** The agents served, as a catalog enrolls them: each tenant's MCP endpoint at `base`, named after the deployment. */
export function servedAgents(
  tenants: readonly Tenant[],
  base: string,
): Array<{ url: string; name: string; description: string; protocols: readonly string[] }> {
  return tenants.map((t) => ({
    url: `${base}${t.path}/mcp`,
    name: `AP test deployment: ${t.name}`,
    description: t.description,
    protocols: t.protocols,
  }));
}

/** The test deployment's buyers' seats on the demo platforms: the public test credential holds one on each of two. */
const demoSeats: readonly PlatformSeat[] = [
  { platform: 'the-trade-desk', account: 'public-test-seat', principals: ['public-test'] },
  { platform: 'dv360', account: 'public-test-seat', principals: ['public-test'] },
];

/** A catalog the operator got wrong stops the start as any bad setting does, naming the file's line. */
async function catalogSetting<T>(setting: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof CatalogError) throw new ConfigError(`${setting}: ${err.message}`);
    throw err;
  }
}

export interface AgentsOptions {
  ctx: AppContext;
  /** The agents to serve, each at its own path; none registers nothing. */
  tenants: readonly Tenant[];
}

/**
 * The agents this deployment serves: each tenant over MCP and A2A, the worker that runs their
 * long tasks, the outbox that delivers their webhooks, the signing keys those are signed with
 * (made at first start), and the JWKS and brand.json receivers resolve the keys from.
 */
export const agentsPlugin = fp<AgentsOptions>(
  async (app, { ctx, tenants }) => {
    if (tenants.length === 0) return;
    const { agents } = ctx.config;
    const keys: KeySettings = {
      alg: agents.signingAlg,
      secret: agents.signingKeySecret,
      clock: ctx.clock,
      publishWindowSeconds: signatureLifetimeSeconds,
    };
    const deliverer = new WebhookDeliverer({
      db: ctx.db,
      fetcher: ctx.fetcher,
      clock: ctx.clock,
      signingKey: () => currentKey(ctx.db, keys),
      settings: {
        baseDelayMs: agents.webhookRetryBaseMs,
        maxDelayMs: 3_600_000,
        maxAttempts: agents.webhookMaxAttempts,
        pollMs: 1000,
      },
      log: app.log,
    });
    const worker = new TaskWorker({
      db: ctx.db,
      clock: ctx.clock,
      tenants,
      log: app.log,
      onWebhook: () => deliverer.wake(),
      settings: {
        leaseMs: 5 * 60_000,
        maxAttempts: agents.taskMaxAttempts,
        validateOutputs: agents.validateOutputs,
        pollMs: 1000,
        concurrency: 8,
      },
    });
    const passes = new Map<string, BackgroundPass>();
    for (const tenant of tenants) {
      for (const pass of tenant.passes ?? []) {
        const context = { db: ctx.db, clock: ctx.clock, log: app.log, webhooksQueued: () => deliverer.wake() };
        const onError = (err: unknown) =>
          app.log.error({ err, tenant: tenant.name, pass: pass.name }, 'agent background pass failed');
        passes.set(
          `${tenant.name}:${pass.name}`,
          new BackgroundPass(() => pass.run(context), onError, pass.intervalMs),
        );
      }
    }
    app.decorate('taskWorker', worker);
    app.decorate('webhookDeliverer', deliverer);
    app.decorate('agentPasses', passes);
    for (const tenant of tenants) mountTenant(app, ctx, tenant, worker);
    keyRoutes(app, ctx.db, keys, tenants, () => baseUrl(app, ctx.config));
    listingRoutes(app, tenants, () => baseUrl(app, ctx.config));
    app.addHook('onListen', async () => {
      const base = baseUrl(app, ctx.config);
      // Only the public one is printed: a tenant's other credentials are secrets.
      const offered = tenants.some((t) => t.credentials?.some((c) => c.token === agents.testCredential));
      const credential = offered ? `; public test credential: Authorization: Bearer ${agents.testCredential}` : '';
      app.log.info(
        { agents: tenants.map((t) => `${base}${t.path}/mcp`) },
        `agents serving at ${tenants.map((t) => `${base}${t.path}/mcp`).join(', ')}${credential}`,
      );
    });
    app.addHook('onReady', async () => {
      // Before the server listens, so no buyer's call waits behind a schema's compilation.
      compileTaskSchemas([...new Set(tenants.flatMap((t) => t.tasks.map((task) => task.name)))]);
      await currentKey(ctx.db, keys);
      if (!agents.signingKeySecret) unsealedKeysWarning(app, ctx.config.host);
      // Both pick up what a previous process accepted but did not finish.
      worker.start();
      deliverer.start();
      housekeeping.start();
      for (const pass of passes.values()) pass.start();
    });
    const housekeeping = new BackgroundPass(
      async () => void (await pruneAgentRecords(ctx.db, ctx.clock, agents.replayTtlSeconds)),
      (err) => app.log.error({ err }, 'could not prune old agent records'),
      3_600_000,
    );
    app.addHook('preClose', async () => {
      await Promise.all([...passes.values()].map((pass) => pass.stop()));
      await housekeeping.stop();
      await worker.close();
      await deliverer.close();
    });
  },
  { name: 'agents' },
);

/**
 * Without AP_SIGNING_KEY_SECRET the agents' private signing keys lie unsealed in the database.
 * On a loopback-only server that is a developer's machine; anywhere else it is a deployment that
 * anyone able to read the database (or, embedded, its files) can sign webhooks for, so it is said
 * at error level on every start.
 */
function unsealedKeysWarning(app: FastifyInstance, host: string): void {
  if (isLoopbackHost(host)) {
    app.log.warn(
      'AP_SIGNING_KEY_SECRET is not set: agent signing keys are stored unsealed (acceptable in development only)',
    );
    return;
  }
  app.log.error(
    `AP_SIGNING_KEY_SECRET is not set and this server listens on ${host}: the agents' private signing keys are stored UNSEALED in the database, and anyone who can read it can sign webhooks as these agents. Set AP_SIGNING_KEY_SECRET (openssl rand -hex 32) before serving anyone but yourself.`,
  );
}
