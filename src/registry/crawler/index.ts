import type { FastifyPluginAsync } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import type { AppContext } from '../../context.ts';
import { Crawler, type CrawlReport } from './crawler.ts';
import { crawlRequestRoute } from './routes/crawl-request.ts';
import { CrawlWorker } from './worker.ts';

export { Crawler, type CrawlReport } from './crawler.ts';
export { crawlerLimits, crawlerSettings, type CrawlerConfig, type CrawlerLimits } from './settings.ts';

/** The crawler that crawls one domain now (the worker, `ap crawl` through the control socket), counting its crawls in `metrics`. */
export function createCrawler(ctx: AppContext, metrics: Registry): Crawler {
  const crawls = new Counter({
    name: 'crawls_total',
    help: 'Crawls run by this process, by what the adagents.json fetch came to.',
    labelNames: ['outcome'],
    registers: [metrics],
  });
  const events = new Counter({
    name: 'crawl_events_total',
    help: 'Feed events written by crawls in this process.',
    registers: [metrics],
  });
  const onReport = (report: CrawlReport) => {
    crawls.inc({ outcome: report.adagents });
    events.inc(report.events);
  };
  return new Crawler({ db: ctx.db, fetcher: ctx.fetcher, clock: ctx.clock, config: ctx.config.crawler, onReport });
}

export interface CrawlerOptions {
  ctx: AppContext;
  crawler: Crawler;
}

/**
 * The crawler: the crawl-request endpoint, and (unless CRAWL_WORKER=false) the worker that
 * crawls due domains from the shared queue with `crawler`.
 */
export const crawlerPlugin: FastifyPluginAsync<CrawlerOptions> = async (app, { ctx, crawler }) => {
  const worker = ctx.config.crawler.worker
    ? new CrawlWorker({ db: ctx.db, clock: ctx.clock, crawler, log: app.log })
    : undefined;
  crawlRequestRoute(app, ctx, () => worker?.wake());
  if (worker) {
    app.addHook('onReady', async () => worker.start());
    app.addHook('preClose', async () => worker.close());
  }
};
