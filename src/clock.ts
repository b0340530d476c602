/** The time, from one place, so tests can move it (nonce expiry, the proof window). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
