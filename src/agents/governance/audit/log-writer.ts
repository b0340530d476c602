import type { Queryable } from '../../../db/database.ts';
import * as sql from '../sql.ts';

type Entry = Parameters<typeof sql.appendLog>[1];

/** Entries written by one statement at most. */
const batchSize = 500;

/**
 * The audit log's writer for checks outside a transaction (intent checks): each check waits for
 * its entry to be written, as before, but the entries of the checks arriving while one write is
 * under way are written together by the next, one statement for up to 500 (a group commit), so
 * the log costs a check a share of a write instead of a write.
 */
export class LogWriter {
  #waiting: Array<{ entry: Entry; done: () => void; failed: (err: unknown) => void }> = [];
  #writing = false;

  append(db: Queryable, entry: Entry): Promise<void> {
    return new Promise((done, failed) => {
      this.#waiting.push({ entry, done, failed });
      if (this.#writing) return;
      this.#writing = true;
      // After the checks already under way have reached here too: PGlite writes synchronously,
      // so a write started at once would hold every other check back and always go alone.
      setImmediate(() => void this.#write(db));
    });
  }

  async #write(db: Queryable): Promise<void> {
    try {
      while (this.#waiting.length > 0) {
        const batch = this.#waiting.splice(0, batchSize);
        try {
          await sql.appendLogs(
            db,
            batch.map((w) => w.entry),
          );
          for (const w of batch) w.done();
        } catch (err) {
          for (const w of batch) w.failed(err);
        }
      }
    } finally {
      this.#writing = false;
    }
  }
}
