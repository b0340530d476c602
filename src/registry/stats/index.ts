import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { IndexSource } from '../lookups/index.ts';
import { getStatsRoute } from './routes/get-stats.ts';
import { RegistrySummary } from './summary.ts';

export type { RegistrySummary } from './summary.ts';

/** The small summary of what the index does not hold (brands, agents, feed, crawl health), counted again every `intervalMs`. */
export function createRegistrySummary(
  { db, clock }: Pick<AppContext, 'db' | 'clock'>,
  log: FastifyBaseLogger,
  intervalMs = 60_000,
): RegistrySummary {
  return new RegistrySummary({ db, clock, log, intervalMs });
}

export interface StatsOptions {
  /** The lookups' authorization index, read from memory. */
  index: IndexSource;
  summary: RegistrySummary;
}

/**
 * Registry statistics (spec section 4, `GET /api/registry/stats`): what the authorization index
 * holds, read from memory, plus the summary of the rest, counted in the background from when the
 * app is ready.
 */
export const statsPlugin: FastifyPluginAsync<StatsOptions> = async (app, { index, summary }) => {
  getStatsRoute(app, index, summary);
  app.addHook('onReady', async () => summary.start());
  app.addHook('preClose', async () => summary.stop());
};
