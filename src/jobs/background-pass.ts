/**
 * A pass of background work (read new events, claim tasks, send due webhooks, prune old rows)
 * that runs when woken and, once started, every `intervalMs`. At most one pass runs at a time;
 * wakes during a pass fold into one more pass after it, so a burst of wakes costs two passes, not
 * one each. A failed pass is reported and the next wake retries.
 */
export class BackgroundPass {
  private readonly work: () => Promise<void>;
  private readonly onError: (err: unknown) => void;
  private readonly intervalMs: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** Callers of `nextPass` waiting for a pass to start. */
  private waiting: Array<() => void> = [];

  constructor(work: () => Promise<void>, onError: (err: unknown) => void, intervalMs?: number) {
    this.work = work;
    this.onError = onError;
    this.intervalMs = intervalMs;
  }

  /** Runs a pass now and then on the interval, if there is one. */
  start(): void {
    if (this.intervalMs !== undefined) {
      this.timer = setInterval(() => this.wake(), this.intervalMs);
      this.timer.unref();
    }
    this.wake();
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    const waiters = this.waiting.splice(0);
    this.running = this.work()
      .catch(this.onError)
      .finally(() => {
        this.running = undefined;
        for (const resolve of waiters) resolve();
        if (this.again && !this.stopped) {
          this.again = false;
          this.wake();
        }
      });
  }

  /**
   * Resolves when the next pass to start from now on has finished (failed passes included), so a
   * caller (a test, above all) can wait for the work itself instead of sleeping. A pass already
   * running does not count: it may have read the world before the caller changed it. Never
   * resolves once stopped.
   */
  nextPass(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  get stopping(): boolean {
    return this.stopped;
  }

  /** No more passes; resolves when the one in progress, if any, has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }
}
