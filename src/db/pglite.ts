import { PGlite } from '@electric-sql/pglite';
import { setFlagsFromString } from 'node:v8';
import type { Database, Queryable } from './database.ts';
import { makePrivate } from './private-dir.ts';
import { OID, parseDate } from './types.ts';

export interface PgliteOptions {
  /** Directory the database persists in; `memory://` keeps it in memory only. */
  dataDir: string;
  /** A data directory dumped by `dumpDataDir` to start from, instead of an empty cluster. */
  loadDataDir?: Blob | undefined;
}

export interface PgliteDatabase extends Database {
  /** The whole data directory as a tarball, for `loadDataDir`. */
  dumpDataDir(): Promise<Blob>;
}

type Runner = Pick<PGlite, 'query' | 'exec'>;

function queryable(runner: Runner): Queryable {
  return {
    async query<Row>(sql: string, params?: readonly unknown[]) {
      return (await runner.query<Row>(sql, params as unknown[])).rows;
    },
    async exec(sql: string) {
      await runner.exec(sql);
    },
  };
}

/**
 * PostgreSQL's buffer pool inside PGlite. Its default, 128 MB, is touched whole at start (about
 * 110 MB of the process's memory however small the database) and caches pages a second time: the
 * data directory is already in memory (`memory://`) or in the operating system's page cache. 16 MB
 * measured no slower on the registry's queries.
 */
const sharedBuffers = '16MB';

export async function openPglite(options: PgliteOptions): Promise<PgliteDatabase> {
  const onDisk = !options.dataDir.includes('://');
  if (onDisk) await makePrivate(options.dataDir);
  const db = await PGlite.create(options.dataDir, {
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`],
    parsers: { [OID.date]: parseDate },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  if (onDisk) await makePrivate(options.dataDir);
  const direct = queryable(db);
  // PGlite has one connection and runs one statement or transaction at a time; callers queue.
  // `active` counts them so the pool metrics show the queue.
  let active = 0;
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    active++;
    try {
      return await work();
    } finally {
      active--;
    }
  };

  return {
    engine: 'pglite',
    query: (sql, params) => counted(() => direct.query(sql, params)),
    exec: (sql) => counted(() => direct.exec(sql)),
    transaction: (fn) => counted(() => db.transaction((tx) => fn(queryable(tx)))),
    // In-process: NOTIFY from a committing transaction reaches these callbacks directly. (PGlite
    // sends the name unquoted when it stops listening, so channels must be plain identifiers.)
    listen: async (channel, onNotify) =>
      Object.assign(await db.listen(channel, () => onNotify()), { sync: async () => {} }),
    stats: () => ({ total: 1, idle: active === 0 ? 1 : 0, waiting: Math.max(0, active - 1) }),
    close: () => db.close(),
    dumpDataDir: () => db.dumpDataDir('none'),
  };
}

/** V8's flags that keep WebAssembly on its baseline compiler (see skipWasmTierUp), for a child process's command line. */
export const skipWasmTierUpFlags = ['--no-wasm-dynamic-tiering', '--no-wasm-tier-up'];

/**
 * For a process that exits within seconds of opening PGlite (an `ap` command, a test). V8 first
 * compiles WebAssembly quickly, then again, function by function as each warms up, with its
 * optimizing compiler in the background. A short process never gets to use that code, and must
 * wait for those compilations before it can exit: about 3 s after merely opening a database,
 * 8 s of the 15 an initdb with every migration takes. Call it before PGlite first opens; `ap
 * serve`, which lives long, keeps V8's defaults. (`npm test` gives the flags to its processes.)
 */
export function skipWasmTierUp(): void {
  for (const flag of skipWasmTierUpFlags) setFlagsFromString(flag);
}
