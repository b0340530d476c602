import type { Database } from '../../src/db/database.ts';
import { serveAp, type ServingAp } from './cli.ts';
import { engines, postgresUrl } from './engines.ts';

/**
 * One fresh PostgreSQL schema (from the engines helper, dropped on close) that several real
 * `ap serve` processes share, as instances of one deployment share a database: `databaseUrl`
 * points there through the connection's `search_path`. `db` is the test's own connection, as an
 * operator's tool would have. Every process started through `serve` is stopped on close.
 */
export interface SharedSchema {
  db: Database;
  databaseUrl: string;
  serve(env?: Record<string, string>): Promise<ServingAp>;
  close(): Promise<void>;
}

export async function openSharedSchema(): Promise<SharedSchema> {
  const db = await engines.find((e) => e.name === 'postgres')!.open();
  const [row] = await db.query<{ schema: string }>('select current_schema() as schema');
  const url = new URL(postgresUrl);
  url.searchParams.set('options', `-c search_path=${row!.schema}`);
  const processes: ServingAp[] = [];
  return {
    db,
    databaseUrl: url.href,
    async serve(env = {}) {
      // Nothing inherited from the environment decides where state lives.
      const server = await serveAp([], { REDIS_URL: '', AP_ADMIN_KEY: '', ...env, DATABASE_URL: url.href });
      processes.push(server);
      return server;
    },
    async close() {
      await Promise.all(
        processes.map((p) => (p.process.exitCode === null && p.process.signalCode === null ? p.stop() : undefined)),
      );
      await db.close();
    },
  };
}
