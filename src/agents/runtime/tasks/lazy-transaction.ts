import type { Database, Queryable } from '../../../db/database.ts';

class RolledBack extends Error {}

/**
 * A transaction begun at its first statement and ended by `commit(work)` (which runs `work` in it
 * last) or `rollback()`. A long task's handler gets it, so its writes commit with its outcome, yet
 * a handler that first waits (on a render, on a partner) holds no connection, and on PGlite, which
 * runs one transaction at a time, does not stall every other request meanwhile.
 */
export class LazyTransaction {
  private readonly db: Database;
  private opening: Promise<Queryable> | undefined;
  private ended: Promise<void> | undefined;
  private settle: ((work: ((tx: Queryable) => Promise<void>) | null) => void) | undefined;

  constructor(db: Database) {
    this.db = db;
  }

  readonly queryable: Queryable = {
    query: async <Row>(sql: string, params?: readonly unknown[]) => (await this.open()).query<Row>(sql, params),
    exec: async (sql: string) => (await this.open()).exec(sql),
  };

  /** Runs `work` in the transaction (begun now if nothing ran yet) and commits. */
  async commit(work: (tx: Queryable) => Promise<void>): Promise<void> {
    if (!this.opening) return this.db.transaction(work);
    await this.opening;
    this.settle!(work);
    await this.ended;
  }

  /** Rolls back whatever ran; nothing when nothing did. */
  async rollback(): Promise<void> {
    if (!this.opening) return;
    const began = await this.opening.then(
      () => true,
      () => false,
    );
    if (!began) return;
    this.settle!(null);
    await this.ended!.catch((err: unknown) => {
      if (!(err instanceof RolledBack)) throw err;
    });
  }

  private open(): Promise<Queryable> {
    this.opening ??= new Promise<Queryable>((resolve, reject) => {
      this.ended = this.db.transaction(async (tx) => {
        const work = await new Promise<((tx: Queryable) => Promise<void>) | null>((settle) => {
          this.settle = settle;
          resolve(tx);
        });
        if (!work) throw new RolledBack();
        await work(tx);
      });
      // Only a failure to begin matters here; later ones reach commit() or rollback().
      this.ended.catch(reject);
    });
    return this.opening;
  }
}
