import type { Clock } from '../clock.ts';

/**
 * Answers of recent probes, in this process's memory, each kept `ttlMs`: the same question within
 * that time is answered without asking the agent again, and questions asked while one is under
 * way wait for its answer. Failures are not kept, so an agent back up is seen at once. At most
 * `entries` answers and `maxBytes` of them (as JSON), oldest out first: an agent's answer may be
 * megabytes.
 */
export class ProbeCache<T> {
  readonly #answers = new Map<string, { at: number; value: T; bytes: number }>();
  readonly #running = new Map<string, Promise<T>>();
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #entries: number;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(clock: Clock, options: { ttlMs: number; entries: number; maxBytes: number }) {
    this.#clock = clock;
    this.#ttlMs = options.ttlMs;
    this.#entries = options.entries;
    this.#maxBytes = options.maxBytes;
  }

  async get(key: string, probe: () => Promise<T>): Promise<T> {
    const now = this.#clock.now().getTime();
    const kept = this.#answers.get(key);
    if (kept && now - kept.at < this.#ttlMs) return kept.value;
    if (kept) this.#forget(key);
    const running = this.#running.get(key);
    if (running) return running;
    const work = probe().then((value) => {
      const bytes = sizeOf(value);
      if (bytes > this.#maxBytes) return value;
      while (this.#answers.size >= this.#entries || this.#bytes + bytes > this.#maxBytes)
        this.#forget(this.#answers.keys().next().value!);
      this.#answers.set(key, { at: now, value, bytes });
      this.#bytes += bytes;
      return value;
    });
    this.#running.set(key, work);
    try {
      return await work;
    } finally {
      this.#running.delete(key);
    }
  }

  #forget(key: string): void {
    const kept = this.#answers.get(key);
    if (!kept) return;
    this.#answers.delete(key);
    this.#bytes -= kept.bytes;
  }
}

/** The answer's size as JSON; one that cannot be serialized is never kept. */
function sizeOf(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Infinity;
  }
}
