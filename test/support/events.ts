import { Conditions } from '../../src/jobs/conditions.ts';

// Conditions live in src/jobs, where the feed hub's `until` uses them too.
export { Conditions };

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
