import { integer, settings, type Loaded } from '../../settings.ts';

/** The change feed (spec section 4). */
export const feedSettings = settings({
  /** Events older than this are deleted (and their cursors answer 410). */
  retentionDays: {
    env: 'FEED_RETENTION_DAYS',
    default: '90',
    meaning: 'days change-feed events (and their cursors) are kept',
    parse: integer(1, 3650),
  },
  /** How often the retention job runs. */
  pruneIntervalSeconds: {
    env: 'FEED_PRUNE_INTERVAL_SECONDS',
    default: '3600',
    meaning: 'how often the feed retention job deletes old events',
    parse: integer(1, 7 * 86400),
  },
  /** How often a caught-up stream is sent a heartbeat. */
  heartbeatSeconds: {
    env: 'FEED_HEARTBEAT_SECONDS',
    default: '15',
    meaning: 'heartbeat interval of caught-up feed streams',
    parse: integer(1, 3600),
  },
});

export type FeedConfig = Loaded<typeof feedSettings>;
