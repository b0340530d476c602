import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { Crawler } from './crawler.ts';
import { crawlRequestRoute } from './routes/crawl-request.ts';
import { CrawlWorker } from './worker.ts';

export { Crawler, type CrawlReport, type CrawlerConfig } from './crawler.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Crawls one domain now (`ap crawl` through the control socket, tests). */
    crawler: Crawler;
  }
}

/**
 * The crawler: the crawl-request endpoint, and (unless CRAWL_WORKER=false) the worker that
 * crawls due domains from the shared queue. The crawler itself is `app.crawler`.
 */
export function registerCrawler(app: FastifyInstance, ctx: AppContext): void {
  const crawler = new Crawler({ db: ctx.db, fetcher: ctx.fetcher, clock: ctx.clock, config: ctx.config.crawler });
  app.decorate('crawler', crawler);
  const worker = ctx.config.crawler.worker ? new CrawlWorker({ db: ctx.db, clock: ctx.clock, crawler, log: app.log }) : undefined;
  crawlRequestRoute(app, ctx, () => worker?.wake());
  if (worker) {
    app.addHook('onReady', async () => worker.start());
    app.addHook('preClose', async () => worker.close());
  }
}
