import pg from 'pg';
import type { Listening } from './database.ts';
import { quoteIdent } from './identifiers.ts';

const retryDelaysMs = [100, 500, 1000, 2000, 5000];
const syncTimeoutMs = 5000;

/**
 * LISTEN on a connection of its own (a pooled one would be handed to others). When the connection
 * drops it reconnects with backoff and then calls `onNotify` once, for whatever was sent meanwhile.
 */
export async function listenPostgres(url: string, channel: string, onNotify: () => void): Promise<Listening> {
  let client: pg.Client | undefined;
  let stopped = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;

  const open = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    const lost = () => {
      if (client !== next) return;
      client = undefined;
      next.end().catch(() => {});
      scheduleReopen();
    };
    next.on('error', lost);
    next.on('end', lost);
    try {
      await next.connect();
      await next.query(`listen ${quoteIdent(channel)}`);
    } catch (err) {
      next.end().catch(() => {});
      throw err;
    }
    if (stopped) await next.end();
    else client = next;
  };

  const scheduleReopen = () => {
    if (stopped) return;
    const delay = retryDelaysMs[Math.min(failures, retryDelaysMs.length - 1)]!;
    retry = setTimeout(() => {
      open().then(
        () => {
          failures = 0;
          onNotify();
        },
        () => {
          failures++;
          scheduleReopen();
        },
      );
    }, delay);
    retry.unref();
  };

  // The server sends a listening session its pending notifications before answering a query,
  // so once any query sent after the caller's moment is answered, everything committed before it
  // has been handed to `onNotify`. One query in flight at a time: callers arriving while one runs
  // share the next, since the one running may have been sent before their moment.
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const roundTrip = async () => {
    const current = client;
    if (!current) throw new Error(`not listening on ${channel}: the connection is being re-established`);
    // A connection that stopped answering (a half-open socket) is dropped and opened again, so
    // callers fall back rather than wait on it, and what was sent meanwhile is read after.
    const timer = setTimeout(() => void current.end().catch(() => {}), syncTimeoutMs);
    try {
      await current.query('select 1');
    } finally {
      clearTimeout(timer);
    }
  };
  const sync = (): Promise<void> => {
    if (!running) {
      running = roundTrip().finally(() => {
        running = undefined;
      });
      return running;
    }
    next ??= running
      .catch(() => {})
      .then(() => {
        next = undefined;
        return sync();
      });
    return next;
  };

  await open();
  const stop = async () => {
    stopped = true;
    clearTimeout(retry);
    const current = client;
    client = undefined;
    await current?.end().catch(() => {});
  };
  return Object.assign(stop, { sync });
}
