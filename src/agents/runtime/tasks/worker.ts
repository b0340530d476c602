import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../../../auth/index.ts';
import type { Clock } from '../../../clock.ts';
import type { Database, Queryable } from '../../../db/database.ts';
import { WorkPool } from '../../../jobs/work-pool.ts';
import { errorObject } from '../envelope.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { checkOutput, type OutputCheck } from '../outputs.ts';
import { taskContext } from '../runner.ts';
import { Deferral, InputRequired, type TaskProgress, type Tenant } from '../task.ts';
import { enqueueWebhookEvent } from '../webhooks/outbox.ts';
import { StartedWork } from '../started-work.ts';
import { LazyTransaction } from './lazy-transaction.ts';
import * as sql from './sql.ts';
import type { TaskOutcome, TaskRow } from './sql.ts';

export interface WorkerSettings {
  /** How long a claim holds a task without being renewed; renewed every third of it while the task runs. */
  leaseMs: number;
  /** Runs (claims) of one task before it fails for good. */
  maxAttempts: number;
  validateOutputs: OutputCheck;
  pollMs: number;
  concurrency: number;
}

/**
 * A change a run here wrote to a task: its progress, its outcome, or `dropped` when the run ended
 * keeping nothing because the task was no longer its (canceled, or taken over after its lease lapsed).
 */
export interface TaskEvent {
  taskId: string;
  status: 'working' | 'completed' | 'failed' | 'input-required' | 'dropped';
  progress?: TaskProgress;
}

interface Running {
  tenant: string;
  principal: string;
  controller: AbortController;
}

/**
 * Runs accepted long-running tasks, several at once, claimed from the database so any instance
 * may run any task and a task whose instance stopped is taken over when its lease lapses (up to
 * `maxAttempts` runs, then it fails). Each run acts as the principal that started the task; its
 * lease is renewed, with its progress, while it runs, and a renewal that finds the task canceled
 * aborts the handler. The handler's writes, the outcome and its webhook (when the caller gave a
 * push URL) commit in one transaction, and only while the run still holds the task: a canceled
 * or taken-over run's writes roll back.
 */
export class TaskWorker {
  private readonly db: Database;
  private readonly clock: Clock;
  private readonly tenants: Map<string, Tenant>;
  private readonly log: FastifyBaseLogger;
  private readonly onWebhook: () => void;
  private readonly settings: WorkerSettings;
  private readonly pool: WorkPool<TaskRow>;
  private readonly claims: StartedWork;
  private readonly running = new Map<string, Running>();
  private readonly watchers = new Set<(event: TaskEvent) => void>();

  constructor(parts: {
    db: Database;
    clock: Clock;
    tenants: readonly Tenant[];
    log: FastifyBaseLogger;
    onWebhook: () => void;
    settings: WorkerSettings;
  }) {
    this.db = parts.db;
    this.clock = parts.clock;
    this.tenants = new Map(parts.tenants.map((t) => [t.name, t]));
    this.log = parts.log;
    this.onWebhook = parts.onWebhook;
    this.settings = parts.settings;
    this.pool = new WorkPool({
      // One at a time: the pool asks again while there is room.
      claim: async () => {
        const now = this.clock.now();
        const row = await sql.claimNext(
          this.db,
          [...this.tenants.keys()],
          now,
          new Date(now.getTime() + this.settings.leaseMs),
        );
        return row ? [row] : [];
      },
      run: async (row) => {
        const status = await this.run(row);
        this.tell({ taskId: row.task_id, status: status ?? 'dropped' });
      },
      onClaimError: (err) => this.log.error({ err }, 'task worker could not claim tasks; the next pass retries'),
      onRunError: (err, row) =>
        this.log.error(
          { err, taskId: row.task_id },
          'could not record a task outcome; its lease will lapse and it runs again',
        ),
      concurrency: parts.settings.concurrency,
      pollMs: parts.settings.pollMs,
    });
    this.claims = new StartedWork(this.pool);
  }

  start(): void {
    this.claims.start();
  }

  /** Claims runnable tasks up to the concurrency limit. */
  wake(): void {
    this.claims.wake();
  }

  /**
   * Aborts the task's handler when it runs here for this caller (a cancellation). Done in memory
   * before the cancellation is written, since on PGlite that write waits for the handler's transaction.
   */
  abort(tenant: string, principal: string, taskId: string): void {
    const run = this.running.get(taskId);
    if (run && run.tenant === tenant && run.principal === principal)
      run.controller.abort(new AgentError('INVALID_STATE', 'The task was canceled.'));
  }

  /** Something else queued webhooks and committed: the sender should look now. */
  webhooksQueued(): void {
    this.onWebhook();
  }

  /**
   * Hears each change a run here writes to a task, once it is committed, so a test waits for the
   * work itself instead of polling get_task. Returns the function that stops listening.
   */
  watch(listener: (event: TaskEvent) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  private tell(event: TaskEvent): void {
    for (const listener of this.watchers) listener(event);
  }

  /**
   * Stops taking tasks. Tasks still running get a few seconds to finish; after that they are left
   * to their leases, which lapse so that another instance (or this one, restarted) runs them again.
   */
  async close(): Promise<void> {
    await this.pool.close();
  }

  /** The status this run recorded; undefined when it recorded nothing (superseded). */
  private async run(row: TaskRow): Promise<TaskOutcome['status'] | undefined> {
    const tenant = this.tenants.get(row.tenant);
    const task = tenant?.tasks.find((t) => t.name === row.task);
    if (!tenant || !task)
      return this.settle(row, failed(new AgentError('INTERNAL_ERROR', `The agent no longer offers ${row.task}.`)));
    if (row.attempts > this.settings.maxAttempts) {
      const message = `The task was started ${this.settings.maxAttempts} times and did not finish; it is not retried again.`;
      return this.settle(row, failed(new AgentError('INTERNAL_ERROR', message)));
    }
    const controller = new AbortController();
    this.running.set(row.task_id, { tenant: row.tenant, principal: row.principal, controller });
    const lease = new Lease(this.db, this.clock, row, this.settings.leaseMs, controller, this.log, (progress) =>
      this.tell({ taskId: row.task_id, status: 'working', progress }),
    );
    const work = new LazyTransaction(this.db);
    let outcome: TaskOutcome;
    let queued = false;
    try {
      const principal = principalOf(row);
      // Before the handler's first statement opens its transaction.
      const prepared = task.prepare
        ? await task.prepare(row.arguments, {
            db: this.db,
            background: true,
            clock: this.clock,
            log: this.log,
            principal,
            signal: controller.signal,
          })
        : undefined;
      const ctx = await taskContext(
        work.queryable,
        tenant,
        task,
        { clock: this.clock, log: this.log, webhooksQueued: () => void (queued = true) },
        principal,
        row.arguments,
        controller.signal,
        { progress: (p) => lease.report(p), accountDb: this.db },
        prepared,
      );
      const result = await task.handler(row.arguments, ctx);
      if (result instanceof Deferral)
        throw new AgentError('INTERNAL_ERROR', `${row.task} deferred again while running in the background.`);
      checkOutput(task, result, this.settings.validateOutputs, this.log);
      outcome = { status: 'completed', result };
    } catch (err) {
      if (err instanceof InputRequired)
        outcome = {
          status: 'input-required',
          result: { message: err.message, ...(err.data ? { data: err.data } : {}) },
        };
      else {
        await work.rollback();
        // Canceled: the cancellation wrote the status; nothing of this run remains.
        if (controller.signal.aborted) return undefined;
        if (!(err instanceof AgentError))
          this.log.error({ err, task: row.task, taskId: row.task_id }, 'long-running task failed');
        return this.settle(row, failed(err));
      }
    } finally {
      lease.stop();
      this.running.delete(row.task_id);
    }
    try {
      await work.commit((tx) => this.record(tx, row, outcome));
    } catch (err) {
      if (err instanceof Superseded) return undefined;
      // The handler's writes could not commit (a constraint, a lost connection): they are gone; say so.
      this.log.error({ err, task: row.task, taskId: row.task_id }, 'long-running task could not commit its result');
      return this.settle(row, failed(err));
    }
    if (queued || pushUrl(row.arguments)) this.onWebhook();
    return outcome.status;
  }

  /** Writes an outcome with nothing of the handler's in the same transaction (a failure). */
  private async settle(row: TaskRow, outcome: TaskOutcome): Promise<TaskOutcome['status'] | undefined> {
    try {
      await this.db.transaction((tx) => this.record(tx, row, outcome));
    } catch (err) {
      if (err instanceof Superseded) return undefined;
      throw err;
    }
    if (pushUrl(row.arguments)) this.onWebhook();
    return outcome.status;
  }

  private async record(tx: Queryable, row: TaskRow, outcome: TaskOutcome): Promise<void> {
    const now = this.clock.now();
    if (!(await sql.finish(tx, row.task_id, row.attempts, outcome, now))) throw new Superseded();
    await enqueueWebhook(tx, row, outcome.status, outcome.result ?? { error: outcome.error }, now);
  }
}

/** The task is no longer this run's (canceled, or taken over after its lease lapsed): its writes roll back. */
class Superseded extends Error {}

/** Renews a run's lease every third of its length, carrying the latest progress; aborts the run when it lost the task. */
class Lease {
  private readonly timer: NodeJS.Timeout;
  private latest: TaskProgress | undefined;
  private pending = false;
  private beating = false;
  private readonly parts: {
    db: Database;
    clock: Clock;
    row: TaskRow;
    leaseMs: number;
    controller: AbortController;
    log: FastifyBaseLogger;
  };
  private readonly onProgress: (progress: TaskProgress) => void;

  /** `onProgress` hears each progress report once a renewal has written it. */
  constructor(
    db: Database,
    clock: Clock,
    row: TaskRow,
    leaseMs: number,
    controller: AbortController,
    log: FastifyBaseLogger,
    onProgress: (progress: TaskProgress) => void,
  ) {
    this.parts = { db, clock, row, leaseMs, controller, log };
    this.onProgress = onProgress;
    this.timer = setInterval(() => void this.beat(), Math.max(1, Math.floor(leaseMs / 3)));
    this.timer.unref();
  }

  report(progress: TaskProgress): void {
    this.latest = { ...progress };
    this.pending = true;
    void this.beat();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async beat(): Promise<void> {
    if (this.beating) return;
    this.beating = true;
    const { db, clock, row, leaseMs, controller, log } = this.parts;
    try {
      do {
        const progress = this.pending ? this.latest : undefined;
        this.pending = false;
        const now = clock.now();
        if (!(await sql.renew(db, row.task_id, row.attempts, new Date(now.getTime() + leaseMs), progress, now))) {
          if (!controller.signal.aborted)
            controller.abort(new AgentError('INVALID_STATE', 'The task was canceled or taken over.'));
          return;
        }
        if (progress) this.onProgress(progress);
      } while (this.pending);
    } catch (err) {
      log.warn({ err, taskId: row.task_id }, 'could not renew a task lease; the next beat retries');
    } finally {
      this.beating = false;
    }
  }
}

function failed(err: unknown): TaskOutcome {
  return { status: 'failed', error: { ...errorObject(err) } };
}

/** The principal that started the task (the subject alone for tasks accepted before it was stored). */
function principalOf(row: TaskRow): Principal {
  if (row.caller) return row.caller;
  const [kind, ...subject] = row.principal.split(':');
  return { kind: kind as Principal['kind'], subject: subject.join(':'), displayName: row.principal };
}

export function pushUrl(args: Record<string, unknown>): string | undefined {
  const config = args['push_notification_config'];
  const url = config && typeof config === 'object' ? (config as { url?: unknown }).url : undefined;
  return typeof url === 'string' ? url : undefined;
}

/** Queues the task's webhook, when its caller gave a push URL, in the transaction that changed its status. */
export async function enqueueWebhook(
  tx: Queryable,
  row: Pick<TaskRow, 'task_id' | 'tenant' | 'task' | 'arguments'>,
  status: string,
  result: Record<string, unknown>,
  now: Date,
): Promise<void> {
  const url = pushUrl(row.arguments);
  if (!url) return;
  const payload = { task_id: row.task_id, task_type: row.task, status, timestamp: now.toISOString(), result };
  await enqueueWebhookEvent(tx, { tenant: row.tenant, url, taskId: row.task_id, payload }, now);
}
