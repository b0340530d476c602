/** Calls `then` after `ms`; the pacer's one use of time, passed in so tests end gaps by hand. */
export type AfterGap = (ms: number, then: () => void) => void;

// Unref'd: a gap still running must not keep the process alive at shutdown.
const realTimer: AfterGap = (ms, then) => void setTimeout(then, ms).unref();

/**
 * Per-host politeness: requests to one host run one at a time, at least `gapMs` apart, however
 * many domains point at it (publishers that delegate to one manager's file all land on its host).
 * Other hosts are not held up.
 */
export class HostPacer {
  private readonly gapMs: number;
  private readonly after: AfterGap;
  /** The tail of each host's chain; removed when the host goes idle, so the map stays small. */
  private readonly tails = new Map<string, Promise<void>>();

  constructor(gapMs: number, after: AfterGap = realTimer) {
    this.gapMs = gapMs;
    this.after = after;
  }

  async run<T>(host: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(host) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(host, tail);
    await previous;
    try {
      return await fn();
    } finally {
      const done = () => {
        release();
        if (this.tails.get(host) === tail) this.tails.delete(host);
      };
      if (this.gapMs > 0) this.after(this.gapMs, done);
      else done();
    }
  }
}
