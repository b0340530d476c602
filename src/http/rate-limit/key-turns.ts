/**
 * Turns per key, within this process: a request takes its turn after the requests of its key
 * ahead of it have settled, or after `maxWaitMs`, whichever comes first. A limit that counts only
 * accepted requests holds a place while its request runs; without turns, requests arriving
 * meanwhile would be refused for a place that may yet be given back (twenty concurrent crawl
 * requests for a domain that does not resolve: one 400, nineteen 429s with the whole window as
 * `retry_after`). With them, each waits for the answer ahead of it and then gets its own.
 */
export class KeyTurns {
  private readonly tails = new Map<string, Promise<void>>();

  /** Waits for this request's turn at `key`; call the returned function when it has settled. */
  async take(key: string, maxWaitMs: number): Promise<() => void> {
    const ahead = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = ahead.then(() => mine);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    let timer: NodeJS.Timeout | undefined;
    // A request ahead that never settles (a handler that hangs) must not stop the ones behind it.
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxWaitMs)));
    await Promise.race([ahead, waited]);
    clearTimeout(timer);
    return release;
  }

  /** Keys with a request holding or waiting for its turn (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
