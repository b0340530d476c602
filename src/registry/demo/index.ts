import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import { seedDemo } from './seed.ts';

export { seedDemo, type SeedOptions, type SeedOutcome } from './seed.ts';
export { loadWorld, type World, type WorldDocument } from './world.ts';

export interface DemoOptions {
  ctx: AppContext;
}

/**
 * The demo registry: on a start with an empty database (and AP_DEMO, on by default for the
 * embedded one), seeds a small world of houses, publishers and operators, so a newcomer's first
 * calls answer something. Without AP_ADMIN_KEY it also makes an admin key and logs it, once.
 */
export const demoPlugin = fp<DemoOptions>(
  async (app, { ctx }) => {
    if (!ctx.config.demo) return;
    app.addHook('onReady', async () => {
      const outcome = await seedDemo(ctx.db, ctx.clock, { createAdminKey: ctx.config.adminKey === undefined });
      if (!outcome.seeded) return;
      const { adminKey, ...counts } = outcome;
      if (adminKey) app.log.info({ demo: counts }, `demo registry seeded; admin API key (shown once): ${adminKey}`);
      else app.log.info({ demo: counts }, 'demo registry seeded; use AP_ADMIN_KEY as the bearer key for the feed');
    });
  },
  { name: 'demo' },
);
