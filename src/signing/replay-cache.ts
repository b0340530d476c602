/**
 * The (keyid, nonce) replay cache. A verified webhook can be captured and re-sent until its
 * signature expires, so each nonce is remembered until then (plus the clock skew the verifier
 * allows). The per-keyid cap bounds memory and turns a key that suddenly signs far more than it
 * should into a distinct `rate_abuse` signal instead of unbounded growth.
 *
 * Times are Unix seconds, the unit of the signature's `created`/`expires`.
 */

export type ReplayRecordOutcome = 'recorded' | 'replayed' | 'cap_exceeded';

/** Storage for seen nonces; a shared implementation (e.g. Redis) can stand in for the in-memory one. */
export interface ReplayCache {
  /** Whether `keyid` has no room for another nonce right now (checklist step 9a). */
  isFull(keyid: string, nowSeconds: number): boolean | Promise<boolean>;
  /**
   * Records `(keyid, nonce)` until `retainUntilSeconds`, atomically with the check: `replayed` if it
   * is already held, `cap_exceeded` if `keyid` has no room (checklist step 12).
   */
  record(
    keyid: string,
    nonce: string,
    retainUntilSeconds: number,
    nowSeconds: number,
  ): ReplayRecordOutcome | Promise<ReplayRecordOutcome>;
}

export interface InMemoryReplayCacheOptions {
  /** Live nonces held per keyid before it counts as abuse; defaults to 100,000. */
  maxEntriesPerKeyid?: number;
}

const FULL_SWEEP_INTERVAL_SECONDS = 60;

interface KeyidEntries {
  /** nonce → retain-until (seconds). */
  nonces: Map<string, number>;
  /** No entry expires before this; sweeping earlier would find nothing. */
  earliestExpiry: number;
}

/** A replay cache for one process. Expired entries are swept lazily, only when one can have expired. */
export class InMemoryReplayCache implements ReplayCache {
  readonly maxEntriesPerKeyid: number;
  readonly #byKeyid = new Map<string, KeyidEntries>();
  /** When to next sweep keyids that stopped sending, whose entries nothing else would touch. */
  #nextFullSweep = -Infinity;

  constructor(options: InMemoryReplayCacheOptions = {}) {
    this.maxEntriesPerKeyid = options.maxEntriesPerKeyid ?? 100_000;
    if (!Number.isInteger(this.maxEntriesPerKeyid) || this.maxEntriesPerKeyid < 1) {
      throw new RangeError('maxEntriesPerKeyid must be a positive integer');
    }
  }

  isFull(keyid: string, nowSeconds: number): boolean {
    return this.size(keyid, nowSeconds) >= this.maxEntriesPerKeyid;
  }

  record(keyid: string, nonce: string, retainUntilSeconds: number, nowSeconds: number): ReplayRecordOutcome {
    if (nowSeconds >= this.#nextFullSweep) {
      for (const other of [...this.#byKeyid.keys()]) this.#live(other, nowSeconds);
      this.#nextFullSweep = nowSeconds + FULL_SWEEP_INTERVAL_SECONDS;
    }
    const entries = this.#live(keyid, nowSeconds);
    const held = entries?.nonces.get(nonce);
    if (held !== undefined && held > nowSeconds) return 'replayed';
    if ((entries?.nonces.size ?? 0) >= this.maxEntriesPerKeyid) return 'cap_exceeded';
    if (entries) {
      entries.nonces.set(nonce, retainUntilSeconds);
      entries.earliestExpiry = Math.min(entries.earliestExpiry, retainUntilSeconds);
    } else {
      this.#byKeyid.set(keyid, { nonces: new Map([[nonce, retainUntilSeconds]]), earliestExpiry: retainUntilSeconds });
    }
    return 'recorded';
  }

  /** Live nonces held for `keyid`. */
  size(keyid: string, nowSeconds: number): number {
    return this.#live(keyid, nowSeconds)?.nonces.size ?? 0;
  }

  /** The entries of `keyid` with expired ones dropped; `undefined` when none are left. */
  #live(keyid: string, nowSeconds: number): KeyidEntries | undefined {
    const entries = this.#byKeyid.get(keyid);
    if (!entries || nowSeconds < entries.earliestExpiry) return entries;
    let earliest = Infinity;
    for (const [nonce, until] of entries.nonces) {
      if (until <= nowSeconds) entries.nonces.delete(nonce);
      else earliest = Math.min(earliest, until);
    }
    if (entries.nonces.size === 0) {
      this.#byKeyid.delete(keyid);
      return undefined;
    }
    entries.earliestExpiry = earliest;
    return entries;
  }
}
