import type { Clock } from '../../src/clock.ts';

/** A clock the test moves by hand (nonce expiry, the proof window). */
export class ManualClock implements Clock {
  #now = Date.now();
  now = () => new Date(this.#now);
  advance(ms: number): void {
    this.#now += ms;
  }
}
