/**
 * Where rate-limit counters live. The limit hook (`../rate-limit.ts`) only counts and compares;
 * a store keeps one fixed-window counter per key, shared by every instance that uses it.
 */
export interface CounterStore {
  /** Counts one request against `key` in its current window of `windowSeconds`. */
  hit(key: string, windowSeconds: number): Promise<CounterHit>;
  /** Releases what the store holds of its own (timers, connections); never the database. */
  close(): Promise<void>;
}

export interface CounterHit {
  /** Requests counted in the current window, this one included. */
  hits: number;
  /** Whole seconds until the current window ends (rounded up; 0 when it ends now). */
  retryAfterSeconds: number;
}
