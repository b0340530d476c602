/**
 * The best `keep` of a stream of scored ids, kept in a bounded heap: O(n log keep) where sorting
 * every candidate is O(n log n), for a page of 50 out of 10,000. Better is a higher score, then a
 * lower id (catalog order), as `sorted()` answers them.
 */
export class BestOf {
  readonly #keep: number;
  readonly #ids: number[] = [];
  readonly #scores: number[] = [];
  /** Every id offered, kept or not. */
  seen = 0;

  constructor(keep: number) {
    this.#keep = Math.max(0, keep);
  }

  offer(id: number, score: number): void {
    this.seen++;
    if (this.#keep === 0) return;
    const ids = this.#ids;
    const scores = this.#scores;
    if (ids.length < this.#keep) {
      ids.push(id);
      scores.push(score);
      this.#up(ids.length - 1);
    } else if (better(id, score, ids[0]!, scores[0]!)) {
      // The heap's root is the worst kept: the newcomer takes its place.
      ids[0] = id;
      scores[0] = score;
      this.#down(0);
    }
  }

  /** The kept ids with their scores, best first. */
  sorted(): Array<{ id: number; score: number }> {
    return this.#ids.map((id, i) => ({ id, score: this.#scores[i]! })).sort((a, b) => b.score - a.score || a.id - b.id);
  }

  // A min-heap on "better": every parent is worse than its children.
  #up(at: number): void {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.#worse(at, parent)) return;
      this.#swap(at, parent);
      at = parent;
    }
  }

  #down(at: number): void {
    const n = this.#ids.length;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= n) return;
      const right = left + 1;
      const child = right < n && this.#worse(right, left) ? right : left;
      if (!this.#worse(child, at)) return;
      this.#swap(child, at);
      at = child;
    }
  }

  #worse(a: number, b: number): boolean {
    return better(this.#ids[b]!, this.#scores[b]!, this.#ids[a]!, this.#scores[a]!);
  }

  #swap(a: number, b: number): void {
    const ids = this.#ids;
    const scores = this.#scores;
    [ids[a], ids[b]] = [ids[b]!, ids[a]!];
    [scores[a], scores[b]] = [scores[b]!, scores[a]!];
  }
}

function better(id: number, score: number, otherId: number, otherScore: number): boolean {
  return score > otherScore || (score === otherScore && id < otherId);
}
