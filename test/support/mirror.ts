import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app/build-app.ts';
import type { Database } from '../../src/db/database.ts';
import { loadMigrations } from '../../src/db/migrate.ts';
import { anotherInstance } from './engines.ts';
import { testConfig } from './server.ts';

export interface Upstream {
  app: FastifyInstance;
  url: string;
  port: number;
}

/**
 * A registry for a mirror to follow, as a deployment runs it: its own connection pool on `db`'s
 * schema, on `port` (0: a free one), so it can be killed and started again where the mirror
 * expects it while the test keeps writing through `db`.
 */
export async function startUpstream(db: Database, port = 0): Promise<Upstream> {
  const app = await buildApp({
    config: testConfig(),
    db: await anotherInstance(db),
    migrations: await loadMigrations(),
  });
  await app.listen({ port, host: '127.0.0.1' });
  await app.readiness.ready();
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return { app, url: `http://127.0.0.1:${address.port}`, port: address.port };
}
