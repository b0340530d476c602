import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Readiness } from '../../http/health.ts';
import type { EnrollmentContext, OwnDeployment } from '../agents/index.ts';
import { enrollDeploymentAgents, type DeploymentAgentsOutcome } from './deployment-agents.ts';
import { seedDemo, type FirstUser } from './seed.ts';

export { demoOrganization, enrollDeploymentAgents, type DeploymentAgentsOutcome } from './deployment-agents.ts';
export { firstUserEmail, seedDemo, type FirstUser, type SeedOptions, type SeedOutcome } from './seed.ts';
export { loadWorld, type World, type WorldDocument } from './world.ts';
export { demoSettings, loadDemoSettings, type DemoSettings } from './settings.ts';

/** This deployment's agents, which the demo enrolls in the catalog once the server listens (their URL is known then). */
export interface DemoAgents {
  /** Enrolls them; the demo plugin calls it once. */
  enroll(): Promise<DeploymentAgentsOutcome>;
  /** Settles as `enroll` does. */
  enrolled: Promise<DeploymentAgentsOutcome>;
}

/** With the demo on and agents served, what enrolls them with the catalog's `enrollment`; else undefined. */
export function createDemoAgents(
  ctx: Pick<AppContext, 'db' | 'config'>,
  own: OwnDeployment | undefined,
  enrollment: EnrollmentContext,
): DemoAgents | undefined {
  if (!ctx.config.demo || !own) return undefined;
  let settle!: (outcome: Promise<DeploymentAgentsOutcome>) => void;
  const enrolled = new Promise<DeploymentAgentsOutcome>((resolve) => (settle = resolve));
  return {
    enrolled,
    enroll() {
      const outcome = enrollDeploymentAgents(ctx.db, enrollment, own);
      settle(outcome);
      return outcome;
    },
  };
}

export interface DemoOptions {
  ctx: AppContext;
  /** The agents this deployment serves, to enroll in the catalog. */
  agents: DemoAgents | undefined;
  /** `/readyz` waits for them to be enrolled. */
  readiness: Readiness;
  /** Counts the registry's summary again (the stats' brands and agents), once the demo is in. */
  recount: () => Promise<void>;
  /** Filled with what the first start made, shown once (the admin key, the first user). */
  firstRun: FirstRun;
}

/** What a demo registry's first start made, which exists nowhere else: `ap serve` shows it once. */
export interface FirstRun {
  adminKey?: string;
  firstUser?: FirstUser;
}

/**
 * The demo registry: on a start with an empty database (and AP_DEMO, on by default for the
 * embedded one), seeds a small world of houses, publishers and operators, so a newcomer's first
 * calls answer something. Without AP_ADMIN_KEY it also makes an admin key and logs it, once.
 * Once the server listens (the agents' URL is known then), it enrolls the agents this deployment
 * serves in the catalog under the demo organization; /readyz waits for that.
 */
export const demoPlugin: FastifyPluginAsync<DemoOptions> = async (
  app,
  { ctx, agents, readiness, recount, firstRun },
) => {
  if (!ctx.config.demo) return;
  app.addHook('onReady', async () => {
    const outcome = await seedDemo(ctx.db, ctx.clock, {
      createAdminKey: ctx.config.adminKey === undefined,
      createFirstUser: true,
    });
    if (!outcome.seeded) return;
    await recount();
    const { adminKey, firstUser, ...counts } = outcome;
    Object.assign(firstRun, { adminKey, firstUser });
    const key = adminKey ? `admin API key (shown once): ${adminKey}` : 'AP_ADMIN_KEY is the admin API key';
    const user = firstUser ? `; dashboard sign-in (shown once): ${firstUser.email} / ${firstUser.password}` : '';
    app.log.info({ demo: counts }, `demo registry seeded; ${key}${user}`);
  });
  if (!agents) return;
  let done = false;
  readiness.add('demo agents', () => (done ? undefined : 'enrolling the deployment’s agents in the demo catalog'));
  app.addHook('onListen', async () => {
    try {
      const result = await agents.enroll();
      if (result.demo) {
        app.log.info(
          { enrolled: result.enrolled, removed: result.removed },
          `demo catalog: ${result.enrolled.length + result.kept.length} agents of this deployment enrolled`,
        );
        if (result.skipped.length > 0)
          app.log.warn(
            { skipped: result.skipped },
            'demo catalog: agents on an IP address are not enrolled (an agent is enrolled on a domain name): set PUBLIC_URL',
          );
      }
    } catch (err) {
      app.log.error({ err }, 'demo catalog: could not enroll this deployment’s agents; the next start tries again');
    } finally {
      await recount().catch(() => {});
      done = true;
      readiness.changed();
    }
  });
};
