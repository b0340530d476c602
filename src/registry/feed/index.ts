import fp from 'fastify-plugin';
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
import { feedSchemas } from './schemas.ts';
import type { SnapshotSection } from './snapshot.ts';
import { eventsAfter, type EventRow } from './sql.ts';

export { appendEvent, appendEvents, changedFields, feedEvent, type NewEvent } from './append.ts';
export { bootstrapPaths } from './bootstrap-paths.ts';
export type { EntityType } from './event-types.ts';
export { readSnapshot, type SnapshotSection } from './snapshot.ts';
export type { FeedHub, HubSubscriber } from './hub.ts';
export type { EventRow } from './sql.ts';
export { feedSettings, type FeedConfig } from './settings.ts';

/** Every event after `cursor` (all when undefined), in id order, up to `limit`. */
export function readEvents(db: Queryable, cursor: string | undefined, limit: number): Promise<EventRow[]> {
  return eventsAfter(db, cursor, undefined, limit);
}

export interface FeedOptions {
  ctx: AppContext;
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
 * (the whole registry, the property catalog, the collections), plus
 * the hub that wakes streams on commit and the retention job. Capabilities write events with
 * `appendEvent(s)` in their own transactions.
 */
export const feedPlugin = fp<FeedOptions>(
  async (app, { ctx, snapshots, metrics }) => {
    const { db, config, clock } = ctx;
    const settings: FeedSettings = { clock, retentionDays: config.feed.retentionDays };
    const hub = new FeedHub(db, config.feed.heartbeatSeconds * 1000, app.log);
    for (const schema of feedSchemas) app.addSchema(schema);
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

    const retention = retentionJob(db, clock, settings.retentionDays, config.feed.pruneIntervalSeconds * 1000, app.log);
    app.addHook('onReady', async () => {
      await hub.start();
      retention.start();
    });
    // Streams end before the server waits for open connections, and before the database closes.
    app.addHook('preClose', async () => {
      await retention.stop();
      await hub.close();
    });
    app.decorate('feedHub', hub);
    app.decorate('feedRetention', retention);
  },
  { name: 'feed' },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's feed hub (open streams, for metrics and tests). */
    feedHub: FeedHub;
    /** The retention job, so a test can wait for its next pass instead of sleeping. */
    feedRetention: BackgroundPass;
  }
}
