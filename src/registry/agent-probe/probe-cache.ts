import type { Clock } from '../../clock.ts';

/**
 * Answers of recent probes, in this process's memory, each kept `ttlMs`: the same question within
 * that time is answered without asking the agent again, and questions asked while one is under
 * way wait for its answer. Failures are not kept, so an agent back up is seen at once. At most
 * `entries` answers, oldest out first.
 */
export class ProbeCache<T> {
  readonly #answers = new Map<string, { at: number; value: T }>();
  readonly #running = new Map<string, Promise<T>>();
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #entries: number;

  constructor(clock: Clock, options: { ttlMs: number; entries: number }) {
    this.#clock = clock;
    this.#ttlMs = options.ttlMs;
    this.#entries = options.entries;
  }

  async get(key: string, probe: () => Promise<T>): Promise<T> {
    const now = this.#clock.now().getTime();
    const kept = this.#answers.get(key);
    if (kept && now - kept.at < this.#ttlMs) return kept.value;
    if (kept) this.#answers.delete(key);
    const running = this.#running.get(key);
    if (running) return running;
    const work = probe().then((value) => {
      if (this.#answers.size >= this.#entries) this.#answers.delete(this.#answers.keys().next().value!);
      this.#answers.set(key, { at: now, value });
      return value;
    });
    this.#running.set(key, work);
    try {
      return await work;
    } finally {
      this.#running.delete(key);
    }
  }
}
