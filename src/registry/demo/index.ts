import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import type { OwnDeployment } from '../agents/index.ts';
import { enrollDeploymentAgents, type DeploymentAgentsOutcome } from './deployment-agents.ts';
import { seedDemo } from './seed.ts';

export { demoOrganization, enrollDeploymentAgents, type DeploymentAgentsOutcome } from './deployment-agents.ts';
export { seedDemo, type SeedOptions, type SeedOutcome } from './seed.ts';
export { loadWorld, type World, type WorldDocument } from './world.ts';
export { demoSettings, loadDemoSettings, type DemoSettings } from './settings.ts';

export interface DemoOptions {
  ctx: AppContext;
  /** The agents this deployment serves, which the demo enrolls in the catalog. */
  own?: OwnDeployment;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Settles once the demo has enrolled this deployment's agents (after the server listens); absent without the demo. */
    demoAgents?: Promise<DeploymentAgentsOutcome>;
  }
}

/**
 * The demo registry: on a start with an empty database (and AP_DEMO, on by default for the
 * embedded one), seeds a small world of houses, publishers and operators, so a newcomer's first
 * calls answer something. Without AP_ADMIN_KEY it also makes an admin key and logs it, once.
 * Once the server listens (the agents' URL is known then), it enrolls the agents this deployment
 * serves in the catalog under the demo organization; /readyz waits for that.
 */
export const demoPlugin = fp<DemoOptions>(
  async (app, { ctx, own }) => {
    if (!ctx.config.demo) return;
    app.addHook('onReady', async () => {
      const outcome = await seedDemo(ctx.db, ctx.clock, { createAdminKey: ctx.config.adminKey === undefined });
      if (!outcome.seeded) return;
      const { adminKey, ...counts } = outcome;
      if (adminKey) app.log.info({ demo: counts }, `demo registry seeded; admin API key (shown once): ${adminKey}`);
      else app.log.info({ demo: counts }, 'demo registry seeded; use AP_ADMIN_KEY as the bearer key for the feed');
    });
    if (!own) return;
    let settle!: (outcome: Promise<DeploymentAgentsOutcome>) => void;
    const enrolled = new Promise<DeploymentAgentsOutcome>((resolve) => (settle = resolve));
    let done = false;
    app.decorate('demoAgents', enrolled);
    app.readiness.add('demo agents', () =>
      done ? undefined : 'enrolling the deployment’s agents in the demo catalog',
    );
    app.addHook('onListen', async () => {
      const outcome = enrollDeploymentAgents(ctx.db, app.agentEnrollment, own);
      settle(outcome);
      try {
        const result = await outcome;
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
        done = true;
      }
    });
  },
  { name: 'demo', dependencies: ['agent-catalog'] },
);
