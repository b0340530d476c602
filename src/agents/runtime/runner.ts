import canonicalize from 'canonicalize';
import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../../auth/index.ts';
import type { Clock } from '../../clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { AgentError } from '../../protocol/errors.ts';
import { validateArguments } from './arguments.ts';
import { checkMajorVersion } from './capabilities.ts';
import { requireKey, runOnce, type IdempotencySettings } from './idempotency/service.ts';
import { checkOutput, type OutputCheck } from './outputs.ts';
import {
  Deferral,
  type AccountUse,
  type AgentTask,
  type DeferOptions,
  type ResolvedAccount,
  type TaskContext,
  type Tenant,
} from './task.ts';

export interface RunOptions {
  /** Aborted when the caller goes away; passed to the handler. */
  signal?: AbortSignal;
}

export interface TaskRunner {
  tasks: readonly AgentTask[];
  /** Runs a task by name with the caller's arguments; throws AgentError for anything the caller got wrong. */
  run(name: string, args: unknown, principal: Principal, options?: RunOptions): Promise<Record<string, unknown>>;
}

/** Accepts a long-running or deferred task (inside `tx`, with its idempotency record when it mutates) and answers its `{task_id, status}`. */
export type Submit = (
  tx: Queryable,
  task: AgentTask,
  args: Record<string, unknown>,
  principal: Principal,
  options?: DeferOptions,
) => Promise<Record<string, unknown>>;

export interface RunnerSettings extends IdempotencySettings {
  clock: Clock;
  log: FastifyBaseLogger;
  validateOutputs: OutputCheck;
  /** Wakes the webhook sender: a call queued webhooks, and its transaction has committed. */
  webhooksQueued?: () => void;
}

/**
 * What every transport calls: finds the task, checks its arguments, and runs it (or, when it runs
 * long, submits it); a mutating task runs in one transaction with its idempotency record. The
 * handler gets that transaction (read-only tasks: the database), the caller and the resolved
 * account in its context. Transports only translate envelopes.
 */
export function createRunner(db: Database, tenant: Tenant, settings: RunnerSettings, submit: Submit): TaskRunner {
  const byName = new Map(tenant.tasks.map((task) => [task.name, task]));
  return {
    tasks: tenant.tasks,
    async run(name, rawArgs, principal, options = {}) {
      if (tenant.authorize && !(await tenant.authorize(principal))) {
        throw new AgentError('AGENT_ACCESS_DENIED', `This credential may not call the ${tenant.name} agent.`);
      }
      const task = byName.get(name);
      if (!task) {
        throw new AgentError(
          'INVALID_REQUEST',
          `Unknown task "${name}"; this agent offers ${[...byName.keys()].join(', ')}.`,
          { field: 'name' },
        );
      }
      const args = rawArgs ?? {};
      if (typeof args !== 'object' || Array.isArray(args))
        throw new AgentError('INVALID_REQUEST', 'Arguments must be a JSON object.', { field: 'arguments' });
      checkMajorVersion(args);
      const typed = args as Record<string, unknown>;
      validateArguments(task, typed, tenant.resolveAccount !== undefined);
      let queued = false;
      const callSettings = { ...settings, webhooksQueued: () => void (queued = true) };
      // Before the transaction opens, and not for a replay, whose answer is the one recorded.
      const taskPrepare = task.longRunning ? undefined : task.prepare;
      const prepare = taskPrepare
        ? () =>
            taskPrepare(typed, {
              db,
              background: false,
              clock: settings.clock,
              log: settings.log,
              principal,
              signal: options.signal ?? new AbortController().signal,
            })
        : undefined;
      const execute = async (tx: Queryable, prepared: unknown) => {
        if (task.longRunning) return submit(tx, task, typed, principal);
        const ctx = await taskContext(
          tx,
          tenant,
          task,
          callSettings,
          principal,
          typed,
          options.signal,
          undefined,
          prepared,
        );
        const output = await task.handler(typed, ctx);
        if (output instanceof Deferral) return submit(tx, task, typed, principal, output.options);
        checkOutput(task, output, settings.validateOutputs, settings.log);
        return output;
      };
      // Read-only tasks have nothing to commit together; on the database itself they never wait
      // behind another request's transaction on PGlite, which runs one at a time.
      const key = task.mutates ? requireKey(typed) : undefined;
      const answer =
        key === undefined
          ? await execute(db, await prepare?.())
          : await runOnce(
              db,
              settings,
              {
                tenant: tenant.name,
                principal: `${principal.kind}:${principal.subject}`,
                account: accountScope(typed['account']),
                key,
              },
              task.name,
              typed,
              execute,
              prepare,
            );
      if (queued) settings.webhooksQueued?.();
      return answer;
    },
  };
}

/** How a worker runs a task in the background, beside what a call's context has. */
export interface BackgroundRun {
  progress: TaskContext['progress'];
  // A long task's transaction opens at its handler's first statement: reading the account on it
  // would hold a connection (on PGlite, the only one) for the whole run.
  accountDb: Queryable;
}

/** The context a handler runs in: a call's, or (given `background`) a worker's run of an accepted task. */
export async function taskContext(
  tx: Queryable,
  tenant: Tenant,
  task: Pick<AgentTask, 'mutates' | 'accountUse'>,
  settings: { clock: Clock; log: FastifyBaseLogger; webhooksQueued?: () => void },
  principal: Principal,
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
  background?: BackgroundRun,
  prepared?: unknown,
): Promise<TaskContext> {
  return {
    prepared,
    db: tx,
    clock: settings.clock,
    log: settings.log,
    principal,
    account: await resolveAccount(
      background?.accountDb ?? tx,
      tenant,
      principal,
      args['account'],
      task.accountUse ?? (task.mutates ? 'acts' : 'reads'),
      settings.clock,
    ),
    tenant,
    signal: signal ?? new AbortController().signal,
    progress: background?.progress ?? (() => {}),
    background: background !== undefined,
    defer: (options = {}) => new Deferral(options),
    webhooksQueued: settings.webhooksQueued ?? (() => {}),
    // A read-only call runs on the database itself; every other on its transaction already.
    atomically: (fn) => (isDatabase(tx) ? tx.transaction(fn) : fn(tx)),
  };
}

const isDatabase = (db: Queryable): db is Database => typeof (db as Partial<Database>).transaction === 'function';

async function resolveAccount(
  tx: Queryable,
  tenant: Tenant,
  principal: Principal,
  ref: unknown,
  use: AccountUse,
  clock: Clock,
): Promise<ResolvedAccount | undefined> {
  if (!tenant.resolveAccount || !ref || typeof ref !== 'object' || Array.isArray(ref)) return undefined;
  return tenant.resolveAccount(ref as Record<string, unknown>, { db: tx, principal, use, now: clock.now() });
}

/** Keys are scoped to the account referenced: its id, or its natural key (brand + operator) as canonical JSON. */
function accountScope(ref: unknown): string {
  if (!ref || typeof ref !== 'object' || Array.isArray(ref)) return '';
  const id = (ref as { account_id?: unknown }).account_id;
  return typeof id === 'string' ? id : (canonicalize(ref) ?? '');
}
