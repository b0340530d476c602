/**
 * Conditions waited on, checked again whenever what they read changes (`changed()`) rather than on
 * a timer, so a caller (a test, mostly) waits for the work itself instead of sleeping. No bound of
 * its own: whoever waits decides how long a wait for something that never happens may last.
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
