/**
 * Key revocation as the verifier sees it. A revocation list is only as good as its last refresh:
 * past the publisher's `next_update` plus a grace period, "not on the list" no longer means "not
 * revoked", so the verifier refuses (`revocation_stale`) rather than trust a key it cannot vouch for.
 */

/** How current the held list is. */
export interface RevocationFreshness {
  /** When the publisher said the next version of the list would be out. */
  nextUpdate: Date;
}

export interface RevocationList {
  isRevoked(kid: string): boolean | Promise<boolean>;
  /** The freshness of the list held; `undefined` when no list has been fetched yet. */
  freshness(): RevocationFreshness | undefined | Promise<RevocationFreshness | undefined>;
}

/** Whether a list with `freshness` can no longer be trusted at `now`. A list never fetched is stale. */
export function isRevocationStale(
  freshness: RevocationFreshness | undefined,
  now: Date,
  graceSeconds: number,
): boolean {
  return freshness === undefined || now.getTime() > freshness.nextUpdate.getTime() + graceSeconds * 1000;
}

/** A revocation list held in memory, replaced whole by whoever fetches the publisher's list. */
export class InMemoryRevocationList implements RevocationList {
  #revoked = new Set<string>();
  #freshness: RevocationFreshness | undefined;

  /** Installs a fetched list: the revoked kids and the publisher's `next_update`. */
  update(revokedKids: Iterable<string>, nextUpdate: Date): void {
    this.#revoked = new Set(revokedKids);
    this.#freshness = { nextUpdate };
  }

  isRevoked(kid: string): boolean {
    return this.#revoked.has(kid);
  }

  freshness(): RevocationFreshness | undefined {
    return this.#freshness;
  }
}
