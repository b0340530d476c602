import { BackgroundPass } from './background-pass.ts';

export interface WorkPoolParts<T> {
  /** Claims up to `room` items (fewer, or none, when that is all there is). */
  claim(room: number): Promise<T[]>;
  run(item: T): Promise<void>;
  /** A claim failed; the next pass retries. */
  onClaimError(err: unknown): void;
  /** An item's run threw; whatever lease it holds brings it back. */
  onRunError(err: unknown, item: T): void;
  concurrency: number;
  pollMs: number;
}

/**
 * Claimed work run up to `concurrency` items at a time: each pass (on wake, and every `pollMs`)
 * claims as many items as there are free slots, and every finished item frees its slot and wakes
 * the next pass, so a backlog drains at full width without polling.
 */
export class WorkPool<T> {
  private readonly parts: WorkPoolParts<T>;
  private readonly pass: BackgroundPass;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(parts: WorkPoolParts<T>) {
    this.parts = parts;
    this.pass = new BackgroundPass(() => this.fill(), parts.onClaimError, parts.pollMs);
  }

  start(): void {
    this.pass.start();
  }

  wake(): void {
    this.pass.wake();
  }

  /** Stops claiming; items still running get `graceMs` to finish, after which they are left to their leases. */
  async close(graceMs = 5000): Promise<void> {
    await this.pass.stop();
    await Promise.race([Promise.all(this.inFlight), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  }

  private async fill(): Promise<void> {
    while (!this.pass.stopping) {
      const room = this.parts.concurrency - this.inFlight.size;
      if (room <= 0) return;
      const items = await this.parts.claim(room);
      if (items.length === 0) return;
      for (const item of items) {
        const running: Promise<void> = this.parts
          .run(item)
          .catch((err: unknown) => this.parts.onRunError(err, item))
          .finally(() => {
            this.inFlight.delete(running);
            this.wake();
          });
        this.inFlight.add(running);
      }
    }
  }
}
