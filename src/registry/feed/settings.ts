import { integer, reader, type Env, type Setting } from '../../settings.ts';

/** The change feed (spec section 4). */
export interface FeedConfig {
  /** Events older than this are deleted (and their cursors answer 410). */
  retentionDays: number;
  /** How often the retention job runs. */
  pruneIntervalSeconds: number;
  /** How often a caught-up stream is sent a heartbeat. */
  heartbeatSeconds: number;
}

export const feedSettings = {
  FEED_RETENTION_DAYS: { default: '90', meaning: 'days change-feed events (and their cursors) are kept' },
  FEED_PRUNE_INTERVAL_SECONDS: { default: '3600', meaning: 'how often the feed retention job deletes old events' },
  FEED_HEARTBEAT_SECONDS: { default: '15', meaning: 'heartbeat interval of caught-up feed streams' },
} as const satisfies Record<string, Setting>;

export function loadFeedSettings(env: Env): FeedConfig {
  const get = reader(feedSettings, env);
  return {
    retentionDays: integer('FEED_RETENTION_DAYS', get('FEED_RETENTION_DAYS'), 1, 3650),
    pruneIntervalSeconds: integer('FEED_PRUNE_INTERVAL_SECONDS', get('FEED_PRUNE_INTERVAL_SECONDS'), 1, 7 * 86400),
    heartbeatSeconds: integer('FEED_HEARTBEAT_SECONDS', get('FEED_HEARTBEAT_SECONDS'), 1, 3600),
  };
}
