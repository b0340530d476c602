import type { WebhookEvent } from '../webhooks/receiver.ts';

/**
 * Verified webhook events by task, for a call waiting on its task: hand `deliver` to the receiver
 * as its `onEvent` (createWebhookReceiver), and the inbox with its public URL to callApAgent. An
 * event may arrive before the call that started the task has its answer, so events wait here
 * (the newest few hundred tasks) until asked for.
 */
export class WebhookInbox {
  readonly #events = new Map<string, WebhookEvent[]>();
  readonly #waiters = new Map<string, Set<(event: WebhookEvent) => void>>();
  readonly #keep: number;

  constructor(keep = 500) {
    this.#keep = keep;
  }

  readonly deliver = (event: WebhookEvent): void => {
    const taskId = event.task_id;
    if (typeof taskId !== 'string') return;
    const waiters = this.#waiters.get(taskId);
    if (waiters && waiters.size > 0) {
      for (const wake of waiters) wake(event);
      return;
    }
    const kept = this.#events.get(taskId) ?? [];
    this.#events.delete(taskId);
    this.#events.set(taskId, [...kept, event]);
    if (this.#events.size > this.#keep) this.#events.delete(this.#events.keys().next().value!);
  };

  /** The next event for `taskId`: one that already came, or the next to come. */
  next(taskId: string, signal: AbortSignal): Promise<WebhookEvent> {
    const kept = this.#events.get(taskId);
    if (kept && kept.length > 0) {
      const event = kept.shift()!;
      if (kept.length === 0) this.#events.delete(taskId);
      return Promise.resolve(event);
    }
    return new Promise((resolve, reject) => {
      const waiters = this.#waiters.get(taskId) ?? new Set();
      this.#waiters.set(taskId, waiters);
      const done = () => {
        waiters.delete(wake);
        if (waiters.size === 0) this.#waiters.delete(taskId);
        signal.removeEventListener('abort', abort);
      };
      const wake = (event: WebhookEvent) => {
        done();
        resolve(event);
      };
      const abort = () => {
        done();
        reject(signal.reason);
      };
      if (signal.aborted) return abort();
      waiters.add(wake);
      signal.addEventListener('abort', abort, { once: true });
    });
  }
}
