/**
 * One storage interface over two engines: PostgreSQL (pooled, for production) and PGlite
 * (Postgres compiled to WASM, in-process, the embedded default). Both speak the same SQL and
 * return the same JavaScript types (see `types.ts`), so capabilities write their SQL once.
 */
export type EngineName = 'postgres' | 'pglite';

export interface Queryable {
  /** Runs one statement with positional parameters ($1, $2, ...) and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface PoolStats {
  /** Connections open (PGlite: always 1). */
  total: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
}

/** A LISTEN in progress: call it to stop. */
export interface Listening {
  (): Promise<void>;
  /**
   * Resolves once every notification committed before the call has reached `onNotify`, so a
   * reader can trust what notifications have told it so far; rejects while the connection is
   * lost. PostgreSQL answers a query on the listening connection only after delivering what was
   * pending to it (one round trip, shared by concurrent callers); PGlite delivers in the committing
   * call, so it resolves at once.
   */
  sync(): Promise<void>;
}

export interface Database extends Queryable {
  readonly engine: EngineName;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Work
   * inside must use `tx`, not the database, or it runs outside the transaction (and on PGlite,
   * which has one connection, waits for it forever).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` for every NOTIFY on `channel` (its payload ignored), and once more after a
   * lost listening connection is back, since notifications sent meanwhile are gone. Resolves once
   * listening; the function it resolves to stops. Channels are plain lower-case identifiers.
   */
  listen(channel: string, onNotify: () => void): Promise<Listening>;
  stats(): PoolStats;
  close(): Promise<void>;
}
