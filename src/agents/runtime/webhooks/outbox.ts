import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../../db/database.ts';
import { enqueue } from './sql.ts';

export interface WebhookEvent {
  tenant: string;
  url: string;
  /** The task it reports on; none for other events (a delivery report). */
  taskId?: string;
  /** The body, to which the event's `idempotency_key` is added. */
  payload: Record<string, unknown>;
  /** The key, when the body must be complete before it is queued (a payload that signs itself); a new UUID otherwise. */
  idempotencyKey?: string;
}

/**
 * Puts a webhook in the outbox inside `tx`: it is sent (signed, and retried until delivered or
 * given up) once `tx` commits, and never if it rolls back. Each event gets a new idempotency key,
 * the same on every retry, so the receiver drops duplicates.
 */
export async function enqueueWebhookEvent(tx: Queryable, event: WebhookEvent, now: Date): Promise<void> {
  const idempotencyKey = event.idempotencyKey ?? randomUUID();
  await enqueue(
    tx,
    {
      id: randomUUID(),
      tenant: event.tenant,
      task_id: event.taskId ?? null,
      url: event.url,
      idempotency_key: idempotencyKey,
      payload: { ...event.payload, idempotency_key: idempotencyKey },
    },
    now,
  );
}
