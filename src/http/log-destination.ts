import { EventEmitter } from 'node:events';
import fs from 'node:fs';

/** How long to wait before trying again when the descriptor is non-blocking and full. */
const RETRY_MS = 10;
/**
 * How long a line waits for others to share its write. Requests that arrive one at a time (as
 * impressions do) would otherwise each pay for a write of their own, a round trip through the
 * thread pool (measured in docs/decisions.md).
 */
const BATCH_MS = 10;
/** A batch this long leaves at once. */
const BATCH_LINES = 1000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Where the logger's lines go: a file descriptor, written in batches. A line waits at most
 * BATCH_MS for others, then they leave in one write, made off the event loop with at most one
 * write under way; lines logged meanwhile join the next. Lines still waiting when the process
 * exits are written synchronously then (a write already under way is the kernel's by then, as with the logger's own
 * destination). A write error other than a closed reader (EPIPE, after which lines are dropped) is
 * emitted as `error`, as the logger's own destination does.
 *
 * Why not the logger's own destination (sonic-boom): per line it measures the UTF-8 length of the
 * whole pending chunk and re-encodes it after each write, which under load cost more than the rest
 * of the request log (measured in docs/decisions.md).
 */
export class BatchedLogDestination extends EventEmitter {
  private pending: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing = false;
  private closedReader = false;
  private waiting: Array<(err?: Error) => void> = [];
  private readonly fd: number;

  constructor(fd: number) {
    super();
    this.fd = fd;
  }

  write(line: string): boolean {
    if (this.closedReader) return true;
    this.pending.push(line);
    if (this.writing) return true;
    if (this.pending.length >= BATCH_LINES) this.flushPending();
    // Unreferenced: the exit handler writes what is left, so a waiting line keeps no process alive.
    else this.timer ??= setTimeout(this.flushPending, BATCH_MS).unref();
    return true;
  }

  /** Writes what waits now, and calls back once every line written so far has been handed to the descriptor. */
  flush(callback: (err?: Error) => void): void {
    if (!this.writing && (this.pending.length === 0 || this.closedReader)) {
      process.nextTick(callback);
      return;
    }
    this.waiting.push(callback);
    if (!this.writing) this.flushPending();
  }

  /** Writes every line not yet written, before returning; for exit, when no callback would run. */
  flushSync(): void {
    if (this.closedReader || this.pending.length === 0) return;
    let chunk = this.take();
    while (chunk.length > 0) {
      try {
        chunk = chunk.subarray(fs.writeSync(this.fd, chunk));
      } catch (err) {
        if (!isBusy(err)) return this.fail(err);
        Atomics.wait(pause, 0, 0, RETRY_MS);
      }
    }
  }

  private readonly flushPending = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing) return;
    if (this.closedReader || this.pending.length === 0) return this.settled();
    this.writeAsync(this.take());
  };

  private settled(err?: Error): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const callback of waiting) callback(err);
  }

  private take(): Buffer {
    const text = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    this.pending = [];
    return Buffer.from(text);
  }

  private writeAsync(chunk: Buffer): void {
    this.writing = true;
    fs.write(this.fd, chunk, 0, chunk.length, null, (err, written) => {
      if (err) {
        if (isBusy(err)) {
          setTimeout(() => this.writeAsync(chunk), RETRY_MS);
          return;
        }
        this.writing = false;
        this.fail(err);
        this.settled(err);
        return;
      }
      if (written < chunk.length) return this.writeAsync(chunk.subarray(written));
      this.writing = false;
      this.flushPending();
    });
  }

  private fail(err: unknown): void {
    if ((err as NodeJS.ErrnoException).code === 'EPIPE') {
      this.closedReader = true;
      this.pending = [];
      return;
    }
    this.emit('error', err);
  }
}

function isBusy(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EAGAIN' || code === 'EBUSY';
}

let standardOutput: BatchedLogDestination | undefined;

/** The process's standard output as a log destination: one per process, flushed when it exits. */
export function standardOutputLog(): BatchedLogDestination {
  if (!standardOutput) {
    const destination = new BatchedLogDestination(1);
    process.once('exit', () => destination.flushSync());
    standardOutput = destination;
  }
  return standardOutput;
}
