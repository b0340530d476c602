/**
 * Where rate-limit logs live. The limit hook (`enforce.ts`) decides what to count and when;
 * a store keeps, per key, the times of the requests counted within the last window (a sliding
 * log), shared by every instance that uses it, so "N per period" holds for every period-long span,
 * not only for spans aligned to the clock.
 */
export interface CounterStore {
  /**
   * Counts a request at `nowMs` against `key` if fewer than `max` were counted in the window
   * `(nowMs - windowMs, nowMs]`; otherwise counts nothing and says how long until one leaves it.
   */
  take(key: string, max: number, windowMs: number, nowMs: number): Promise<Take>;
  /** Uncounts a request `take` counted (it was refused after all), so it spends no one's budget. */
  giveBack(key: string, slot: string): Promise<void>;
  /** Releases what the store holds of its own (timers, connections); never the database. */
  close(): Promise<void>;
}

export type Take =
  /** Counted; `slot` names this request's entry for `giveBack`. */
  | { taken: true; slot: string }
  /** Not counted: the earliest a request can be counted is `retryAfterMs` from now. */
  | { taken: false; retryAfterMs: number };
