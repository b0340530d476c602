import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/database.ts';
import type { BackgroundPass } from '../../jobs/background-pass.ts';
import { FeedHub } from './hub.ts';
import type { FeedSettings } from './pages.ts';
import { retentionJob } from './retention.ts';
import { feedRoute } from './routes/feed.ts';
import { catalogRoute } from './routes/catalog.ts';
import { collectionsSyncRoute } from './routes/collections-sync.ts';
import { snapshotRoute } from './routes/snapshot.ts';
import { streamRoute } from './routes/stream.ts';
import type { SnapshotSection } from './snapshot.ts';
import { eventsAfter, type EventRow } from './sql.ts';

export { appendEvent, appendEvents, changedFields, feedEvent, type NewEvent } from './append.ts';
export { bootstrapPaths } from './bootstrap-paths.ts';
export type { EntityType } from './event-types.ts';
export { feedSchemas } from './schemas.ts';
export { readSnapshot, type SnapshotSection } from './snapshot.ts';
export type { FeedHub, HubSubscriber } from './hub.ts';
export type { EventRow } from './sql.ts';
export { feedSettings, type FeedConfig } from './settings.ts';

/** Every event after `cursor` (all when undefined), in id order, up to `limit`. */
export function readEvents(db: Queryable, cursor: string | undefined, limit: number): Promise<EventRow[]> {
  return eventsAfter(db, cursor, undefined, limit);
}

/** What the feed offers the others: the hub that wakes streams and followers on commit, and the retention job. */
export interface Feed {
  hub: FeedHub;
  retention: BackgroundPass;
}

/** Builds the feed's hub and retention job; the feed plugin starts them once the app is ready. */
export function createFeed({ db, config, clock }: AppContext, log: FastifyBaseLogger): Feed {
  return {
    hub: new FeedHub(db, config.feed.heartbeatSeconds * 1000, log),
    retention: retentionJob(db, clock, config.feed.retentionDays, config.feed.pruneIntervalSeconds * 1000, log),
  };
}

export interface FeedOptions {
  ctx: AppContext;
  feed: Feed;
  /**
   * The sections each paged snapshot goes through, each provided by the capability that owns it:
   * the whole registry's, the property catalog's and the collections'.
   */
  snapshots: {
    registry: readonly SnapshotSection[];
    catalog: readonly SnapshotSection[];
    collections: readonly SnapshotSection[];
  };
  /** Gets the open stream count. */
  metrics: Registry;
}

/**
 * The change feed: cursor pages, the SSE stream and the paged snapshots a mirror bootstraps from
 * (the whole registry, the property catalog, the collections), served from the feed's hub, which
 * this plugin starts (before the followers registered after it) and closes with the retention
 * job. Capabilities write events with `appendEvent(s)` in their own transactions.
 */
export const feedPlugin: FastifyPluginAsync<FeedOptions> = async (app, { ctx, feed, snapshots, metrics }) => {
  const { db, config, clock } = ctx;
  const { hub, retention } = feed;
  const settings: FeedSettings = { clock, retentionDays: config.feed.retentionDays };
  feedRoute(app, db, settings);
  streamRoute(app, db, settings, hub);
  snapshotRoute(app, db, snapshots.registry);
  catalogRoute(app, db, snapshots.catalog);
  collectionsSyncRoute(app, db, snapshots.collections);
  new Gauge({
    name: 'feed_stream_subscribers',
    help: 'Open change-feed streams in this process.',
    registers: [metrics],
    collect() {
      this.set(hub.subscriberCount);
    },
  });
  app.addHook('onReady', async () => {
    await hub.start();
    // One worker's retention is enough; web instances leave it to them.
    if (config.background) retention.start();
  });
  // Streams end before the server waits for open connections, and before the database closes.
  app.addHook('preClose', async () => {
    await retention.stop();
    await hub.close();
  });
};
