/**
 * Conditions a test waits on, checked again whenever what they read changes (`changed()`) rather
 * than on a timer. Like `FeedHub.until`, no bound of its own: the runner's test timeout fails a
 * wait for something that never happens.
 */
export class Conditions {
  private readonly pending = new Set<() => void>();

  /** Resolves once `check` holds: at once, or at a later `changed()`. */
  until(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve) => {
      const recheck = () => {
        if (!check()) return;
        this.pending.delete(recheck);
        resolve();
      };
      this.pending.add(recheck);
    });
  }

  changed(): void {
    for (const recheck of [...this.pending]) recheck();
  }
}

/**
 * Reports from the code under test (a `watch` listener's events), all kept: the work runs beside
 * the test and may report before the test asks, so `until` also finds a report already heard.
 */
export class Reports<T> {
  readonly all: T[] = [];
  private readonly conditions = new Conditions();

  /** The listener to give the code under test. */
  readonly add = (report: T): void => {
    this.all.push(report);
    this.conditions.changed();
  };

  /** The first report that `match`es, heard already or still to come. */
  async until(match: (report: T) => boolean): Promise<T> {
    let found: T | undefined;
    await this.conditions.until(() => (found = this.all.find(match)) !== undefined);
    return found!;
  }
}
