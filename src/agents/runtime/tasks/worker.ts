import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/database.ts';
import { WorkPool } from '../../../jobs/work-pool.ts';
import { AgentError } from '../../../protocol/errors.ts';
import type { Principal } from '../../../auth/principal.ts';
import type { Tenant } from '../task.ts';
import { enqueue } from '../webhooks/sql.ts';
import * as sql from './sql.ts';
import type { TaskRow } from './sql.ts';

const leaseMs = 5 * 60_000;

/**
 * Runs accepted long-running tasks, several at once, claimed from the database so any instance
 * may run any task and a task whose instance stopped is taken over when its lease lapses. The
 * result and its webhook (when the caller gave a push URL) are written in one transaction.
 */
export class TaskWorker {
  private readonly db: Database;
  private readonly clock: Clock;
  private readonly tenants: Map<string, Tenant>;
  private readonly log: FastifyBaseLogger;
  private readonly onWebhook: () => void;
  private readonly pool: WorkPool<TaskRow>;

  constructor(parts: { db: Database; clock: Clock; tenants: readonly Tenant[]; log: FastifyBaseLogger; onWebhook: () => void; pollMs: number; concurrency: number }) {
    this.db = parts.db;
    this.clock = parts.clock;
    this.tenants = new Map(parts.tenants.map((t) => [t.name, t]));
    this.log = parts.log;
    this.onWebhook = parts.onWebhook;
    this.pool = new WorkPool({
      // One at a time: the pool asks again while there is room.
      claim: async () => {
        const now = this.clock.now();
        const row = await sql.claimNext(this.db, [...this.tenants.keys()], now, new Date(now.getTime() + leaseMs));
        return row ? [row] : [];
      },
      run: (row) => this.run(row),
      onClaimError: (err) => this.log.error({ err }, 'task worker could not claim tasks; the next pass retries'),
      onRunError: (err, row) => this.log.error({ err, taskId: row.task_id }, 'could not record a task outcome; its lease will lapse and it runs again'),
      concurrency: parts.concurrency,
      pollMs: parts.pollMs,
    });
  }

  start(): void {
    this.pool.start();
  }

  /** Claims runnable tasks up to the concurrency limit. */
  wake(): void {
    this.pool.wake();
  }

  /**
   * Stops taking tasks. Tasks still running get a few seconds to finish; after that they are left
   * to their leases, which lapse so that another instance (or this one, restarted) runs them again.
   */
  async close(): Promise<void> {
    await this.pool.close();
  }

  private async run(row: TaskRow): Promise<void> {
    const task = this.tenants.get(row.tenant)?.tasks.find((t) => t.name === row.task);
    let outcome: { status: 'completed' | 'failed'; result?: Record<string, unknown>; error?: Record<string, unknown> };
    try {
      if (!task) throw new AgentError('INTERNAL_ERROR', `The agent no longer offers ${row.task}.`);
      const [kind, ...subject] = row.principal.split(':');
      const principal: Principal = { kind: kind as Principal['kind'], subject: subject.join(':'), displayName: row.principal };
      outcome = { status: 'completed', result: await task.handler(row.arguments, { principal, tenant: row.tenant }) };
    } catch (err) {
      if (!(err instanceof AgentError)) this.log.error({ err, task: row.task, taskId: row.task_id }, 'long-running task failed');
      const error = err instanceof AgentError ? err : new AgentError('INTERNAL_ERROR');
      outcome = { status: 'failed', error: { code: error.code, message: error.message } };
    }
    const url = pushUrl(row.arguments);
    await this.db.transaction(async (tx) => {
      const now = this.clock.now();
      await sql.finish(tx, row.task_id, outcome, now);
      if (!url) return;
      const idempotencyKey = randomUUID();
      await enqueue(
        tx,
        {
          id: randomUUID(),
          tenant: row.tenant,
          task_id: row.task_id,
          url,
          idempotency_key: idempotencyKey,
          payload: {
            task_id: row.task_id,
            idempotency_key: idempotencyKey,
            task_type: row.task,
            status: outcome.status,
            timestamp: now.toISOString(),
            result: outcome.result ?? { error: outcome.error },
          },
        },
        now,
      );
    });
    if (url) this.onWebhook();
  }
}

function pushUrl(args: Record<string, unknown>): string | undefined {
  const config = args['push_notification_config'];
  const url = config && typeof config === 'object' ? (config as { url?: unknown }).url : undefined;
  return typeof url === 'string' ? url : undefined;
}
