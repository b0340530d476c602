import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import { getStatsRoute } from './routes/get-stats.ts';
import { RegistrySummary } from './summary.ts';

export type { RegistrySummary } from './summary.ts';

export interface StatsOptions {
  ctx: AppContext;
  /** How often the summary is counted again (brands, agents, feed, crawl health). */
  refreshIntervalMs?: number;
}

/**
 * Registry statistics (spec section 4, `GET /api/registry/stats`): what the authorization index
 * holds, read from memory, plus a small summary of the rest counted in the background. Registers
 * after the lookups plugin, whose `app.authorizationIndex` it reads.
 */
export const statsPlugin = fp<StatsOptions>(
  async (app, { ctx, refreshIntervalMs = 60_000 }) => {
    const summary = new RegistrySummary({ db: ctx.db, clock: ctx.clock, log: app.log, intervalMs: refreshIntervalMs });
    getStatsRoute(app, app.authorizationIndex, summary);
    app.addHook('onReady', async () => summary.start());
    app.addHook('preClose', async () => summary.stop());
    app.decorate('registrySummary', summary);
  },
  { name: 'stats', dependencies: ['lookups'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The stats' background summary (tests refresh it instead of waiting a minute). */
    registrySummary: RegistrySummary;
  }
}
