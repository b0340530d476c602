import pg from 'pg';
import type { Database, Queryable } from './database.ts';
import { quoteIdent } from './identifiers.ts';
import { listenPostgres } from './postgres-listener.ts';
import { OID, parseDate, parseInt8 } from './types.ts';

export interface PostgresOptions {
  url: string;
  /** Maximum pooled connections. */
  poolMax?: number;
  /** Schema to work in (set as the connection's search_path); tests isolate themselves this way. */
  schema?: string;
}

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === OID.int8) return parseInt8;
    if (oid === OID.date) return parseDate;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export function openPostgres(options: PostgresOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax ?? 10,
    types,
    ...(options.schema ? { options: `-c search_path=${quoteIdent(options.schema)}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});

  const run = async <Row>(client: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]) =>
    (await client.query(sql, params as unknown[])).rows as Row[];

  // Without parameters node-postgres uses the simple protocol, which accepts several statements.
  const exec = async (client: pg.Pool | pg.PoolClient, sql: string) => {
    await client.query(sql);
  };

  return {
    engine: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    exec: (sql) => exec(pool, sql),
    async transaction(fn) {
      const client = await pool.connect();
      // A checked-out client whose connection is cut (a restart, a failover) emits 'error' with no
      // listener of the pool's: left alone that would crash the process. The query in flight fails
      // on its own; the client is then dropped rather than handed out again.
      let broken: Error | undefined;
      const onError = (err: Error) => void (broken = err);
      client.on('error', onError);
      const tx: Queryable = { query: (sql, params) => run(client, sql, params), exec: (sql) => exec(client, sql) };
      try {
        await client.query('BEGIN');
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    listen: (channel, onNotify) => listenPostgres(options.url, channel, onNotify),
    stats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
