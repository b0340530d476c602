import type { FastifyPluginAsync } from 'fastify';
import type { AgentResources } from '../auth/index.ts';
import { ConfigError } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { AuthorizationIndex } from '../registry/lookups/index.ts';
import { baseUrl } from '../http/base-url.ts';
import { compileTaskSchemas } from '../protocol/schemas.ts';
import { listingRoutes } from './listing.ts';
import { keyRoutes } from './runtime/keys/routes.ts';
import type { KeySettings } from './runtime/keys/store.ts';
import { mountTenant, type TaskWorkerHandle, type Tenant } from './runtime/index.ts';
import { CatalogError, demoCatalogPath, loadCatalogFile, salesAgent } from './sales/index.ts';
import { demoSignalsPath, loadSignalsCatalog, signalsAgent, type PlatformSeat } from './signals/index.ts';
import { creativeAgent, creativeBuilderAgent, type BrandLookup } from './creative/index.ts';
import { signingKeys } from './background-work.ts';
import { brandAgent, type BrandRecords } from './brand/index.ts';
import { governanceAgent, planOwnerOf, seedPlan, sharedLists, type RegistryPolicies } from './governance/index.ts';

export type { AgentTask, TaskContext, Tenant } from './runtime/index.ts';
export type { TaskEvent, TaskWorker } from './runtime/tasks/worker.ts';
export type { DeliveryEvent, WebhookDeliverer } from './runtime/webhooks/deliverer.ts';
export type { KeySettings } from './runtime/keys/store.ts';
export {
  createHousekeeping,
  createTaskWorker,
  createTenantPasses,
  createWebhookDeliverer,
  prepareSigningKeys,
  signingKeys,
} from './background-work.ts';
export { agentsSettings, publicTestCredential, type AgentsConfig } from './settings.ts';
export { GovernanceTokenError, verifyGovernanceToken, type GovernanceClaims } from './governance/index.ts';
export { signatureLifetimeSeconds } from './runtime/keys/lifetime.ts';
export { brandTenant, revokeGrant } from './brand/index.ts';
export { rotate, type SigningAlg } from './runtime/keys/store.ts';

/** What the registry hands the agents: the brands it knows, which creatives are drawn from, and its authorization index, which property lists resolve from. */
export interface DeploymentRegistry {
  brands?: BrandLookup;
  /** The index as it stands now (the follower swaps it when it rebuilds). */
  authorization?: () => AuthorizationIndex;
  /** The registry's policies by id, which content standards name. */
  policies?: RegistryPolicies;
  /** The registry's brand records, which the brand agent answers from; no brand agent without them. */
  brandRecords?: BrandRecords;
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
    governance: { fetcher: ctx.fetcher, secret: agents.signingKeySecret, clock: ctx.clock },
    seedPlan: (db, caller, planId, fixture, now) => seedPlan(db, planOwnerOf(caller), planId, fixture, now),
    ...(registry.authorization
      ? { propertyLists: sharedLists(() => `${base()}/governance/mcp`, registry.authorization) }
      : {}),
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
    governance: { fetcher: ctx.fetcher, secret: agents.signingKeySecret, clock: ctx.clock },
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
  const governance = governanceAgent({
    base,
    credentials,
    keys: signingKeys(ctx),
    ...(registry.authorization ? { authorization: registry.authorization } : {}),
    ...(registry.policies ? { registryPolicies: registry.policies } : {}),
    fetcher: ctx.fetcher,
    ...(agents.testCredential ? { demoFor: 'public-test' } : {}),
  });
  const brand =
    registry.brandRecords &&
    brandAgent({
      base,
      credentials,
      brands: registry.brandRecords,
      governance: { fetcher: ctx.fetcher, secret: agents.signingKeySecret, clock: ctx.clock },
    });
  return [sales, signals, creative, builder, governance, ...(brand ? [brand] : [])];
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
  /** The agents to serve, each at its own path. */
  tenants: readonly Tenant[];
  /** The long-task worker their calls hand tasks to. */
  worker: TaskWorkerHandle;
  /** Where each agent declares itself a protected resource, before its routes (auth's guard then knows them). */
  resources: AgentResources;
  /** The signing keys the JWKS and brand.json routes publish. */
  keys: KeySettings;
}

/**
 * The agents this deployment serves: each tenant over MCP and A2A, handing its long tasks to
 * `worker`, and the JWKS and brand.json receivers resolve the agents' signing keys from. The
 * worker, the webhook sender and the background passes are built and run by the composition root.
 */
export const agentsPlugin: FastifyPluginAsync<AgentsOptions> = async (
  app,
  { ctx, tenants, worker, resources, keys },
) => {
  const { agents } = ctx.config;
  for (const tenant of tenants) {
    resources.add({ name: tenant.name, path: tenant.path, credentials: tenant.credentials ?? [] });
    mountTenant(app, ctx, tenant, worker);
  }
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
  // Before the server listens, so no buyer's call waits behind a schema's compilation.
  app.addHook('onReady', async () =>
    compileTaskSchemas([...new Set(tenants.flatMap((t) => t.tasks.map((task) => task.name)))]),
  );
};
