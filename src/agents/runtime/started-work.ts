/** Background work as it is started and woken: a pass, or a pool of passes. */
interface Startable {
  start(): void;
  wake(): void;
}

/**
 * Background work that runs only once started, as the instances that run background work start
 * it: on the others (AP_ROLE=web) a wake does nothing, and a worker instance claims the work.
 */
export class StartedWork {
  private readonly work: Startable;
  private started = false;

  constructor(work: Startable) {
    this.work = work;
  }

  start(): void {
    this.started = true;
    this.work.start();
  }

  wake(): void {
    if (this.started) this.work.wake();
  }
}
