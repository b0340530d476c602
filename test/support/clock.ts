import type { Clock } from '../../src/clock.ts';

/** A clock the test moves by hand (nonce expiry, the proof window, feed retention). */
export class ManualClock implements Clock {
  #now = Date.now();
  now = () => new Date(this.#now);
  advance(ms: number): void {
    this.#now += ms;
  }
  /** Moves the clock to `epochMs`. */
  set(epochMs: number): void {
    this.#now = epochMs;
  }
}
