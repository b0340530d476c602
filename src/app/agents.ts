import type { FastifyInstance } from 'fastify';
import {
  agentsPlugin,
  createHousekeeping,
  createTaskWorker,
  createTenantPasses,
  createWebhookDeliverer,
  prepareSigningKeys,
  servedAgents,
  signingKeys,
  testDeployment,
  type Tenant,
} from '../agents/index.ts';
import type { AgentResources } from '../auth/index.ts';
import type { AppContext } from '../context.ts';
import { baseUrl, listeningAddress } from '../http/base-url.ts';
import type { OwnDeployment } from '../registry/agents/index.ts';
import { BrandRecordCache, brandIdentity } from '../registry/brands/index.ts';
import { provesAny } from '../registry/ownership/index.ts';
import { registryPolicyEntries } from '../registry/policies/index.ts';
import { register } from './register.ts';
import type { RegistryCore } from './registry.ts';
import type { RootServices } from './services.ts';

/**
 * The agents to serve: those given (tests), else the test deployment's (none with AGENTS=false),
 * whose creative agents draw a referenced brand as the registry knows it, and whose governance
 * agent resolves property lists from the registry's authorization index.
 */
export async function agentTenants(
  app: FastifyInstance,
  ctx: AppContext,
  given: Tenant[] | undefined,
  core: RegistryCore,
): Promise<readonly Tenant[]> {
  if (given) return given;
  const follower = core.authorization.index;
  // Started and stopped with the brand agent, which is its only reader.
  const records = new BrandRecordCache(ctx.db, ctx.clock);
  return testDeployment(ctx, () => baseUrl(app, ctx.config), {
    brands: brandIdentity,
    authorization: () => follower.index,
    policies: registryPolicyEntries,
    brandRecords: {
      record: (brandId) => records.record(brandId),
      unlocks: (db, caller, domains) => provesAny(db, ctx, caller, domains),
      start: records.start,
      stop: records.stop,
    },
  });
}

/** The agents served beside the registry, as the agent catalog and the demo see them. */
export function ownDeployment(app: FastifyInstance, ctx: AppContext, tenants: readonly Tenant[]): OwnDeployment {
  return {
    served: () => servedAgents(tenants, baseUrl(app, ctx.config)),
    listening: () => listeningAddress(app),
    credential: ctx.config.agents.testCredential,
  };
}

/** The agents' services, as the root decorates them. */
export type AgentServices = Pick<RootServices, 'taskWorker' | 'webhookDeliverer' | 'agentPasses'>;

/**
 * Serves the tenants (none registers nothing) with the background work their calls rely on,
 * built here from the agents' factories: the worker that runs long tasks, the sender of their
 * webhooks, each tenant's background passes and the housekeeping, started once the app is ready
 * (with the signing keys made at first start) and stopped before it closes.
 */
export async function registerAgents(
  app: FastifyInstance,
  { ctx, tenants, resources }: { ctx: AppContext; tenants: readonly Tenant[]; resources: AgentResources },
): Promise<AgentServices> {
  if (tenants.length === 0) return {};
  const keys = signingKeys(ctx);
  const deliverer = createWebhookDeliverer(ctx, keys, app.log);
  const worker = createTaskWorker(ctx, tenants, deliverer, app.log);
  const passes = createTenantPasses(ctx, tenants, deliverer, app.log);
  const housekeeping = createHousekeeping(ctx, app.log);
  await register(app, agentsPlugin, { ctx, tenants, worker, resources, keys });
  // In a context of its own, after the agents' routes: Fastify runs the contexts' hooks in
  // registration order, so the work starts once the capabilities before it are ready, and stops after them.
  await register(
    app,
    async (background) => {
      background.addHook('onReady', async () => {
        await prepareSigningKeys(ctx, keys, app.log);
        // On workers only (AP_ROLE): a web instance queues tasks and webhooks, which they claim.
        if (ctx.config.background) {
          // Both pick up what a previous process accepted but did not finish.
          worker.start();
          deliverer.start();
          housekeeping.start();
          for (const pass of passes.values()) pass.start();
        }
        for (const tenant of tenants)
          await tenant
            .start?.({ db: ctx.db, clock: ctx.clock })
            .catch((err: unknown) =>
              app.log.warn({ err, tenant: tenant.name }, 'agent serves from the database alone'),
            );
      });
      background.addHook('preClose', async () => {
        await Promise.all(tenants.map((tenant) => tenant.stop?.()));
        await Promise.all([...passes.values()].map((pass) => pass.stop()));
        await housekeeping.stop();
        await worker.close();
        await deliverer.close();
      });
    },
    {},
  );
  return { taskWorker: worker, webhookDeliverer: deliverer, agentPasses: passes };
}
