import { oneOf, settings, type Loaded } from '../settings.ts';

/**
 * What this process is for, among the instances of one deployment on one PostgreSQL: `web` answers
 * requests and runs no background work; `worker` runs the background work (crawling, probing,
 * long-running tasks such as signal activations, webhook delivery, the agents' passes, feed
 * retention, profile events) and answers requests too; `all` (one process) does both.
 */
export const processSettings = settings({
  // Not `role`: other commands (users, keys) have a --role flag of their own.
  processRole: {
    env: 'AP_ROLE',
    default: 'all',
    meaning:
      'what this instance does: all (requests and background work), web (requests only) or worker (background work: crawls, probes, tasks, webhooks, retention)',
    // Named as the --role flag, which may be where the value came from.
    parse: (value) => oneOf(['all', 'web', 'worker'])(value, 'AP_ROLE (--role)'),
  },
});

export type ProcessSettings = Loaded<typeof processSettings>;

/** Whether this instance runs the deployment's background work. */
export const runsBackgroundWork = (config: ProcessSettings): boolean => config.processRole !== 'web';
