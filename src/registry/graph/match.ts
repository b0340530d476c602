/**
 * Pairs the records of a new crawl with the stored ones, so each change is told apart from a
 * creation: first by key (property_id, collection_id), then by shared identifier (a property
 * whose id was renamed is still the site it was). When one new record takes in several stored
 * ones, the first stays and the others merge into it.
 */

export interface Stored {
  rid: string;
  key: string;
  identifiers: string[];
}

export interface Incoming {
  key: string;
  identifiers: string[];
}

export interface Match<T> {
  next: T;
  /** The stored record this one continues; undefined for a new record. */
  rid: string | undefined;
  /** Stored records that become aliases of `rid`. */
  merged: string[];
}

export interface Matching<T> {
  matches: Match<T>[];
  /** Stored records no longer declared. */
  missing: string[];
}

export function matchRecords<T extends Incoming>(stored: readonly Stored[], incoming: readonly T[]): Matching<T> {
  const byKey = new Map(stored.map((s) => [s.key, s.rid]));
  const byIdentifier = new Map<string, string[]>();
  for (const s of stored)
    for (const id of s.identifiers) byIdentifier.set(id, [...(byIdentifier.get(id) ?? []), s.rid]);

  const claimed = new Set<string>();
  // Keys first, for every record, so a record matched by key is never merged away by another's identifiers.
  const keyed = incoming.map((next) => {
    const rid = byKey.get(next.key);
    if (rid !== undefined) claimed.add(rid);
    return rid;
  });
  const matches = incoming.map((next, i): Match<T> => {
    const shared = [...new Set(next.identifiers.flatMap((id) => byIdentifier.get(id) ?? []))].filter(
      (rid) => !claimed.has(rid),
    );
    for (const rid of shared) claimed.add(rid);
    const own = keyed[i];
    if (own !== undefined) return { next, rid: own, merged: shared };
    const [first, ...rest] = shared;
    return { next, rid: first, merged: rest };
  });
  return { matches, missing: stored.filter((s) => !claimed.has(s.rid)).map((s) => s.rid) };
}

/** How records of one kind are told apart: a stored one's rid and key, a new one's key, and an identifier's identity. */
export interface RecordIdentity<S, N, I> {
  rid: (stored: S) => string;
  storedKey: (stored: S) => string;
  key: (next: N) => string;
  identifier: (identifier: I) => string;
}

export interface ProjectedMatch<S, N> {
  projected: N;
  /** The stored record this one continues (`rid` its rid); undefined for a new record. */
  rid: string | undefined;
  before: S | undefined;
  /** Stored records that become aliases of `rid`. */
  merged: string[];
}

/**
 * `matchRecords` for stored rows and projected records whose identifiers are objects, made
 * comparable by `by.identifier`; answers with the stored rows themselves, not only their rids.
 */
export function matchProjected<S extends { identifiers: readonly I[] }, N extends { identifiers: readonly I[] }, I>(
  stored: readonly S[],
  projected: readonly N[],
  by: RecordIdentity<S, N, I>,
): { matches: ProjectedMatch<S, N>[]; missing: S[] } {
  const byRid = new Map(stored.map((row) => [by.rid(row), row]));
  const matching = matchRecords(
    stored.map((row) => ({
      rid: by.rid(row),
      key: by.storedKey(row),
      identifiers: row.identifiers.map(by.identifier),
    })),
    projected.map((next) => ({ key: by.key(next), identifiers: next.identifiers.map(by.identifier), projected: next })),
  );
  return {
    matches: matching.matches.map(({ next, rid, merged }) => ({
      projected: next.projected,
      rid,
      before: rid === undefined ? undefined : byRid.get(rid)!,
      merged,
    })),
    missing: matching.missing.map((rid) => byRid.get(rid)!),
  };
}
