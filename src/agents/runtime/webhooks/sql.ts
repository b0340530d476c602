import type { Queryable } from '../../../db/database.ts';

export interface DeliveryRow {
  id: string;
  tenant: string;
  /** None for an event that reports on no task. */
  task_id: string | null;
  url: string;
  idempotency_key: string;
  payload: Record<string, unknown>;
  attempts: number;
}

export async function enqueue(db: Queryable, row: Omit<DeliveryRow, 'attempts'>, now: Date): Promise<void> {
  await db.query(
    `insert into webhook_deliveries (id, tenant, task_id, url, idempotency_key, payload, state, next_attempt_at, created_at)
     values ($1, $2, $3, $4, $5, $6, 'pending', $7, $7)`,
    [row.id, row.tenant, row.task_id, row.url, row.idempotency_key, JSON.stringify(row.payload), now],
  );
}

/**
 * Takes up to `limit` due deliveries and pushes their next attempt past `leaseUntil`, so another
 * instance does not send them meanwhile; the outcome of each send then sets it properly.
 */
export async function claimDue(db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<DeliveryRow[]> {
  return db.query<DeliveryRow>(
    `update webhook_deliveries set next_attempt_at = $2, attempts = attempts + 1
     where id in (select id from webhook_deliveries where state = 'pending' and next_attempt_at <= $1 order by next_attempt_at limit $3 for update skip locked)
     returning id, tenant, task_id, url, idempotency_key, payload, attempts`,
    [now, leaseUntil, limit],
  );
}

export async function delivered(db: Queryable, id: string, now: Date): Promise<void> {
  await db.query(
    `update webhook_deliveries set state = 'delivered', delivered_at = $2, last_error = null where id = $1`,
    [id, now],
  );
}

export async function retryAt(db: Queryable, id: string, at: Date, error: string): Promise<void> {
  await db.query(`update webhook_deliveries set next_attempt_at = $2, last_error = $3 where id = $1`, [id, at, error]);
}

export async function failed(db: Queryable, id: string, error: string): Promise<void> {
  await db.query(`update webhook_deliveries set state = 'failed', last_error = $2 where id = $1`, [id, error]);
}

/** Deletes delivered or abandoned webhooks created before `before`. */
export async function deleteSettledBefore(db: Queryable, before: Date): Promise<number> {
  const [row] = await db.query<{ deleted: number }>(
    `with gone as (delete from webhook_deliveries where state in ('delivered', 'failed') and created_at < $1 returning 1) select count(*)::int as deleted from gone`,
    [before],
  );
  return row!.deleted;
}
