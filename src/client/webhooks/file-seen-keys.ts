import { mkdir, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { systemClock, type Clock } from '../../clock.ts';
import type { SeenKeys } from './receiver.ts';

export interface FileSeenKeysOptions {
  /** The state directory; made when missing. One receiver process at a time may hold it. */
  dir: string;
  clock?: Clock;
  /**
   * How long a processed key is remembered. A seller retries for hours at most (ours: 12 attempts,
   * backoff capped at an hour), so a month leaves ample margin; older keys are dropped at open
   * and, while it runs, once a day.
   */
  retainDays?: number;
}

const LOG = 'seen-keys.jsonl';
const LOCK = 'lock';

/**
 * Processed idempotency keys kept on disk, so a receiver that restarts still answers a retry of an
 * event it processed as a duplicate. An append-only JSON-lines file is loaded whole at open; a key
 * is written and fsync'd (`commit`) after its event was processed and before the receiver answers
 * 2xx, so a crash in between reprocesses the retry (at least once) rather than losing the event.
 * Appends are batched: deliveries committing together share one fsync.
 *
 * Within the process a key being processed is `in-progress`: a concurrent delivery of the same
 * key is told to come back rather than answered 2xx, since the first may still fail. A lock file
 * with the holder's pid keeps a second process off the same directory (a dead holder's lock is
 * taken over).
 */
export class FileSeenKeys implements SeenKeys {
  /** Processed keys, with when each was processed (ms). */
  readonly #done: Map<string, number>;
  readonly #pending = new Set<string>();
  #log: FileHandle;
  readonly #dir: string;
  readonly #lockPath: string;
  readonly #clock: Clock;
  readonly #retainMs: number;
  #prunedAt: number;
  #queue: Array<{ line: string; settle: (err?: unknown) => void }> = [];
  #flushing: Promise<void> | undefined;

  private constructor(parts: {
    done: Map<string, number>;
    log: FileHandle;
    dir: string;
    lockPath: string;
    clock: Clock;
    retainMs: number;
  }) {
    this.#done = parts.done;
    this.#log = parts.log;
    this.#dir = parts.dir;
    this.#lockPath = parts.lockPath;
    this.#clock = parts.clock;
    this.#retainMs = parts.retainMs;
    this.#prunedAt = parts.clock.now().getTime();
  }

  static async open(options: FileSeenKeysOptions): Promise<FileSeenKeys> {
    const clock = options.clock ?? systemClock;
    await mkdir(options.dir, { recursive: true });
    const lockPath = join(options.dir, LOCK);
    await takeLock(lockPath, options.dir);
    try {
      const path = join(options.dir, LOG);
      const retainMs = (options.retainDays ?? 30) * 86_400_000;
      const { entries, rewrite } = await readLog(path, clock.now().getTime() - retainMs);
      if (rewrite) await replaceLog(options.dir, path, entries);
      const log = await open(path, 'a');
      return new FileSeenKeys({
        done: new Map(entries.map((e) => [e.key, Date.parse(e.at)])),
        log,
        dir: options.dir,
        lockPath,
        clock,
        retainMs,
      });
    } catch (err) {
      await unlink(lockPath).catch(() => {});
      throw err;
    }
  }

  /** How many keys are remembered as processed. */
  get size(): number {
    return this.#done.size;
  }

  claim(key: string): boolean | 'in-progress' {
    if (this.#done.has(key)) return false;
    if (this.#pending.has(key)) return 'in-progress';
    this.#pending.add(key);
    return true;
  }

  async commit(key: string): Promise<void> {
    const at = this.#clock.now();
    await new Promise<void>((resolve, reject) => {
      this.#queue.push({
        line: `${JSON.stringify({ key, at: at.toISOString() })}\n`,
        settle: (err) => (err ? reject(err) : resolve()),
      });
      this.#flushing ??= this.#flush().finally(() => (this.#flushing = undefined));
    });
    this.#done.set(key, at.getTime());
    this.#pending.delete(key);
  }

  release(key: string): void {
    this.#pending.delete(key);
  }

  /** Waits for writes under way, then closes the file and gives up the directory. */
  async close(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    await this.#log.close();
    if ((await readFile(this.#lockPath, 'utf8').catch(() => '')).trim() === String(process.pid))
      await unlink(this.#lockPath);
  }

  async #flush(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      try {
        await this.#prune();
        await this.#log.write(batch.map((b) => b.line).join(''));
        await this.#log.datasync();
        for (const b of batch) b.settle();
      } catch (err) {
        for (const b of batch) b.settle(err);
      }
    }
  }

  /**
   * Once a day, forgets keys past the retention and rewrites the log without them, so a receiver
   * that runs for months keeps a month of keys. Runs inside the flush: no append meanwhile.
   */
  async #prune(): Promise<void> {
    const now = this.#clock.now().getTime();
    if (now - this.#prunedAt < 86_400_000) return;
    this.#prunedAt = now;
    const cutoff = now - this.#retainMs;
    for (const [key, at] of this.#done) if (at < cutoff) this.#done.delete(key);
    await this.#log.close();
    const path = join(this.#dir, LOG);
    await replaceLog(
      this.#dir,
      path,
      [...this.#done].map(([key, at]) => ({ key, at: new Date(at).toISOString() })),
    );
    this.#log = await open(path, 'a');
  }
}

interface Entry {
  key: string;
  at: string;
}

/** The log's complete lines still within the retention; `rewrite` when some were dropped or the last line was torn by a crash. */
async function readLog(path: string, cutoffMs: number): Promise<{ entries: Entry[]; rewrite: boolean }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], rewrite: false };
    throw err;
  }
  const lines = text.split('\n');
  // What follows the last newline is a line whose write never finished: its event was not acknowledged.
  let rewrite = lines.pop() !== '';
  const entries: Entry[] = [];
  for (const line of lines) {
    const entry = parseEntry(line);
    if (entry && Date.parse(entry.at) >= cutoffMs) entries.push(entry);
    else rewrite = true;
  }
  return { entries, rewrite };
}

function parseEntry(line: string): Entry | undefined {
  try {
    const value = JSON.parse(line) as Partial<Entry>;
    return typeof value.key === 'string' && typeof value.at === 'string' ? { key: value.key, at: value.at } : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the kept entries beside the log and renames over it, so a crash leaves the old log or the new one whole. */
async function replaceLog(dir: string, path: string, entries: Entry[]): Promise<void> {
  const temporary = `${path}.tmp`;
  const file = await open(temporary, 'w');
  try {
    await file.write(entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, path);
  const directory = await open(dir, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

/** Creates the lock file with this pid, taking over one whose process is gone. */
async function takeLock(lockPath: string, dir: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const file = await open(lockPath, 'wx');
      await file.write(String(process.pid));
      await file.close();
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST')
          throw new Error(`the state directory ${dir} is in use by another receiver`, { cause: err });
        throw err;
      }
    }
    const holder = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(holder) && holder > 0 && alive(holder))
      throw new Error(`the state directory ${dir} is in use by process ${holder}`);
    await unlink(lockPath).catch(() => {});
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
