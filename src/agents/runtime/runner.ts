import type { Principal } from '../../auth/principal.ts';
import type { Database } from '../../db/database.ts';
import { AgentError } from '../../protocol/errors.ts';
import { validateArguments } from './arguments.ts';
import { checkMajorVersion } from './capabilities.ts';
import { requireKey, runOnce, type IdempotencySettings } from './idempotency/service.ts';
import type { AgentTask, Tenant } from './task.ts';

export interface TaskRunner {
  tasks: readonly AgentTask[];
  /** Runs a task by name with the caller's arguments; throws AgentError for anything the caller got wrong. */
  run(name: string, args: unknown, principal: Principal): Promise<Record<string, unknown>>;
}

/** Accepts a long-running task for the worker and answers its `{task_id, status}`. */
export type Submit = (task: AgentTask, args: Record<string, unknown>, principal: Principal) => Promise<Record<string, unknown>>;

/**
 * What every transport calls: finds the task, checks its arguments, and runs it (or, when it runs
 * long, submits it), through the idempotency record when it mutates. Transports only translate
 * envelopes.
 */
export function createRunner(db: Database, tenant: Tenant, idempotency: IdempotencySettings, submit: Submit): TaskRunner {
  const byName = new Map(tenant.tasks.map((task) => [task.name, task]));
  return {
    tasks: tenant.tasks,
    async run(name, rawArgs, principal) {
      if (tenant.authorize && !(await tenant.authorize(principal))) {
        throw new AgentError('AGENT_ACCESS_DENIED', `This credential may not call the ${tenant.name} agent.`);
      }
      const task = byName.get(name);
      if (!task) {
        throw new AgentError('INVALID_REQUEST', `Unknown task "${name}"; this agent offers ${[...byName.keys()].join(', ')}.`, { field: 'name' });
      }
      const args = rawArgs ?? {};
      if (typeof args !== 'object' || Array.isArray(args)) throw new AgentError('INVALID_REQUEST', 'Arguments must be a JSON object.', { field: 'arguments' });
      checkMajorVersion(args);
      validateArguments(task, args as Record<string, unknown>);
      const ctx = { principal, tenant: tenant.name };
      const typed = args as Record<string, unknown>;
      const execute = () => (task.longRunning ? submit(task, typed, principal) : task.handler(typed, ctx));
      if (!task.mutates) return execute();
      const key = requireKey(typed);
      const account = (typed['account'] as { account_id?: unknown } | undefined)?.account_id;
      const scope = { tenant: tenant.name, principal: `${principal.kind}:${principal.subject}`, account: typeof account === 'string' ? account : '', key };
      return runOnce(db, idempotency, scope, task.name, typed, execute);
    },
  };
}
