import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { loadMigrations, migrate, type Migration } from './db/migrate.ts';
import { openDatabase } from './db/open.ts';
import { registerCors } from './http/cors.ts';
import { registerErrorRendering } from './http/errors.ts';
import { registerHealth } from './http/health.ts';
import { requireJsonWrites } from './http/json-writes.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerOpenApi } from './http/openapi.ts';
import { echoRequestId, requestId } from './http/request-id.ts';
import { logRequests } from './http/request-log.ts';
import { recordRoutes } from './http/route-table.ts';
import { ApError } from './protocol/errors.ts';

export interface AppDeps {
  config: Config;
  db: Database;
  migrations: Migration[];
}

/**
 * The composition root: builds the whole HTTP application from its configuration and database.
 * Capabilities are registered here and know nothing of each other.
 */
export async function buildApp({ config, db, migrations }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    // One line per request, written by request-log.ts, instead of the framework's two.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestId,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // We answer 503 in the catalogue's shape ourselves while closing (see the preClose hook).
    return503OnClosing: false,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true } },
  });

  recordRoutes(app);
  registerErrorRendering(app);
  echoRequestId(app);

  // Idle connections are closed at shutdown; a request that arrives on a busy keep-alive
  // connection meanwhile is told to go elsewhere, in the catalogue's shape.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async () => {
    if (closing) throw new ApError('service_unavailable', 'The server is shutting down; retry on another instance.');
  });
  logRequests(app);
  requireJsonWrites(app);
  // Before any route: the OpenAPI generator only sees routes registered after it.
  await registerOpenApi(app, config.publicUrl);
  await registerCors(app);
  registerMetrics(app, db);

  registerHealth(app, db, migrations);

  app.addHook('onClose', async () => {
    await db.close();
  });
  return app;
}

export interface RunningServer {
  app: FastifyInstance;
  /** Base URL the server listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  engine: Database['engine'];
  close(): Promise<void>;
}

/** Opens the database, applies migrations, builds the app and listens. Closing closes both. */
export async function startServer(config: Config, db?: Database): Promise<RunningServer> {
  const database = db ?? (await openDatabase(config));
  try {
    const migrations = await loadMigrations();
    await migrate(database, migrations);
    const app = await buildApp({ config, db: database, migrations });
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    return { app, url: `http://${host}:${port}`, engine: database.engine, close: () => app.close() };
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
}
