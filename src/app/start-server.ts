import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { anythingAnswers, controlSocketPath } from '../admin/control-client.ts';
import { closeControlSocket, openControlSocket } from '../admin/control-socket.ts';
import { ConfigError } from '../settings.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import { BackgroundPass } from '../jobs/background-pass.ts';
import { backfillSkeletons } from '../registry/homographs/index.ts';
import { buildApp } from './build-app.ts';

export interface RunningServer {
  app: FastifyInstance;
  /** Base URL the server listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  engine: Database['engine'];
  close(): Promise<void>;
}

/**
 * Opens the database, applies migrations, builds the app and listens; then backfills, in the
 * background, what older data lacks. Closing closes both.
 */
export async function startServer(config: Config, db?: Database): Promise<RunningServer> {
  if (!db) await refuseHeldDataDirectory(config);
  const database = db ?? (await openDatabase(config));
  try {
    const migrations = await loadMigrations();
    await migrate(database, migrations);
    const app = await buildApp({ config, db: database, migrations });
    await serveControlSocket(app, config, database);
    const backfill = skeletonBackfill(app, database);
    await app.listen({ port: config.port, host: config.host });
    if (config.background) backfill.start();
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    return { app, url: `http://${host}:${port}`, engine: database.engine, close: () => app.close() };
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
}

/**
 * An embedded database is one process's: a second `ap serve` on the same data directory would
 * write under the first. The first answers on its control socket, so that is asked before opening.
 */
async function refuseHeldDataDirectory(config: Config): Promise<void> {
  const path = controlSocketPath(config);
  if (path && existsSync(path) && (await anythingAnswers(path)))
    throw new ConfigError(
      `the data directory ${config.dataDir} is in use by another ap serve (it answers on ${path}); stop that one, or give this one another --data-dir`,
    );
}

/** While this process holds an embedded database, the CLI reaches it through a socket (see admin/). */
async function serveControlSocket(app: FastifyInstance, config: Config, db: Database): Promise<void> {
  const path = controlSocketPath(config);
  if (!path) return;
  // A crawl asked for through the socket uses this server's crawler, so its fetch client and pacing.
  const socket = await openControlSocket(db, path, {
    crawler: () => app.crawler,
    enrollment: () => app.agentEnrollment,
  });
  app.addHook('preClose', async () => closeControlSocket(socket, path));
}

/**
 * Saves keep look-alike skeletons current; this job fills them for entries written before, or
 * from older data, once per start (a save meanwhile is screened against what is filled so far).
 * The database closes only after it has finished.
 */
function skeletonBackfill(app: FastifyInstance, db: Database): BackgroundPass {
  const job = new BackgroundPass(
    async () => void (await backfillSkeletons(db)),
    (err) => app.log.error({ err }, 'could not backfill look-alike skeletons; the next start tries again'),
  );
  app.addHook('preClose', async () => job.stop());
  return job;
}
