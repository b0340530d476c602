import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { baseUrl } from '../../http/base-url.ts';
import { serveAgentMcp } from '../../http/mcp/agent.ts';
import { mountA2a } from './a2a.ts';
import { capabilitiesTask } from './capabilities.ts';
import { deploymentHostCheck } from '../../http/mcp/host-check.ts';
import { mountHttp } from './http.ts';
import { createRunner, type Submit } from './runner.ts';
import type { Tenant } from './task.ts';
import { cancelTaskTask, getTaskTask, submitTask } from './tasks/service.ts';
import { taskTools } from './tools.ts';

export type {
  AccountUse,
  AgentTask,
  DeferOptions,
  JsonSchema,
  PassContext,
  PrepareContext,
  Tenant,
  TenantPass,
  TenantMount,
  TenantRouteDeps,
  TaskArguments,
  TaskContext,
  TaskProgress,
  ResolvedAccount,
} from './task.ts';
export { seal, unseal } from './keys/seal.ts';
export { InputRequired } from './task.ts';
export { completeTask, findTask, type TaskOutcome } from './tasks/service.ts';
export { actorOf, ownerOf } from './owner.ts';
export { enqueueWebhookEvent, type WebhookEvent } from './webhooks/outbox.ts';
export { errorObject, type ErrorObject } from './envelope.ts';
export {
  cursorPosition,
  defaultPageSize,
  keysetList,
  pageCursor,
  pageRequestInput,
  largePageRequestInput,
  paginateLarge,
  paginate,
  pageStart,
  type KeysetReader,
  type PageInfo,
  type PageRequest,
} from './pagination.ts';
export { keysetQuery, type KeysetQuery } from './keyset-query.ts';
export { accountRefInput, idInput, objectsInput } from './input-schemas.ts';
export { checkPublishedRequest, publishedSchemas } from './published-request.ts';
export { textBounds, textInput } from './text-bounds.ts';

/** What the tenant's transports need of the long-task worker. */
export interface TaskWorkerHandle {
  /** A task was accepted: claim it. */
  wake(): void;
  /** A task was canceled: stop its handler if it runs here. */
  abort(tenant: string, principal: string, taskId: string): void;
  /** A call queued webhooks and committed: send them now. */
  webhooksQueued(): void;
}

/**
 * Serves a tenant's tasks, plus `get_ap_capabilities` (and `get_task`, `cancel_task` when some
 * run long), over MCP at `<path>/mcp`, A2A at `<path>/a2a` and, with an envelope, plain HTTP at
 * `<path>/tasks/<task>`. Declare the tenant a protected resource (auth's agent resources) first.
 */
export function mountTenant(app: FastifyInstance, ctx: AppContext, tenant: Tenant, worker: TaskWorkerHandle): void {
  const { agents } = ctx.config;
  const builtIn = [
    capabilitiesTask(tenant, { replayTtlSeconds: agents.replayTtlSeconds, webhookAlgorithms: [agents.signingAlg] }),
  ];
  const abort = worker.abort.bind(worker);
  if (runsLong(tenant)) builtIn.push(getTaskTask(), cancelTaskTask(ctx.db, abort));
  const withBuiltIns: Tenant = { ...tenant, tasks: [...builtIn, ...tenant.tasks] };
  const submit: Submit = async (tx, task, args, principal, options) =>
    submitTask(tx, ctx.clock, tenant.name, principal, task.name, args, options);
  const runner = createRunner(
    ctx.db,
    withBuiltIns,
    {
      clock: ctx.clock,
      replayTtlSeconds: agents.replayTtlSeconds,
      log: app.log,
      validateOutputs: agents.validateOutputs,
      webhooksQueued: () => worker.webhooksQueued(),
    },
    submit,
  );
  // The worker claims what was accepted once it is committed.
  const run: typeof runner.run = async (...call) => {
    const answer = await runner.run(...call);
    if (answer['status'] === 'submitted' && typeof answer['task_id'] === 'string' && !answer['replayed']) worker.wake();
    return answer;
  };
  const served = { tasks: runner.tasks, run };
  const hostGuard = deploymentHostCheck(ctx.config);
  serveAgentMcp(app, taskTools(withBuiltIns, served), hostGuard);
  mountA2a(app, withBuiltIns, served, () => baseUrl(app, ctx.config), hostGuard, {
    db: ctx.db,
    clock: ctx.clock,
    abort,
  });
  if (tenant.httpEnvelope) mountHttp(app, withBuiltIns, served, tenant.httpEnvelope, hostGuard);
  tenant.routes?.(app, { db: ctx.db, clock: ctx.clock });
}

const runsLong = (tenant: Tenant) => tenant.tasks.some((t) => t.longRunning || t.mayDefer);

/** The tasks a tenant answers, by name: the built-ins `mountTenant` adds, then its own. */
export function advertisedTaskNames(tenant: Tenant): string[] {
  return [
    'get_ap_capabilities',
    ...(runsLong(tenant) ? ['get_task', 'cancel_task'] : []),
    ...tenant.tasks.map((t) => t.name),
  ];
}
