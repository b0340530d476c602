import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { baseUrl } from '../../http/base-url.ts';
import { mountA2a } from './a2a.ts';
import { capabilitiesTask } from './capabilities.ts';
import { hostCheck } from './host-check.ts';
import { mountHttp } from './http.ts';
import { mountMcp } from './mcp.ts';
import { createRunner, type Submit } from './runner.ts';
import type { Tenant } from './task.ts';
import { getTaskTask, submitTask } from './tasks/service.ts';

export type { AgentTask, Tenant, TaskContext } from './task.ts';

/**
 * Serves a tenant's tasks, plus `get_ap_capabilities` (and `get_task` when some run long), over MCP
 * at `<path>/mcp`, A2A at `<path>/a2a` and, with an envelope, plain HTTP at `<path>/tasks/<task>`.
 * `onSubmitted` wakes the worker for a new long task.
 */
export function mountTenant(app: FastifyInstance, ctx: AppContext, tenant: Tenant, onSubmitted: () => void): void {
  const { agents } = ctx.config;
  const publicHost = ctx.config.publicUrl ? new URL(ctx.config.publicUrl).hostname : undefined;
  const builtIn = [capabilitiesTask(tenant, { replayTtlSeconds: agents.replayTtlSeconds, webhookAlgorithms: [agents.signingAlg] })];
  if (tenant.tasks.some((t) => t.longRunning)) builtIn.push(getTaskTask(ctx.db, tenant.name));
  const withBuiltIns: Tenant = { ...tenant, tasks: [...builtIn, ...tenant.tasks] };
  const submit: Submit = async (task, args, principal) => {
    const accepted = await submitTask(ctx.db, ctx.clock, tenant.name, `${principal.kind}:${principal.subject}`, task.name, args);
    onSubmitted();
    return accepted;
  };
  const runner = createRunner(
    ctx.db,
    withBuiltIns,
    { clock: ctx.clock, replayTtlSeconds: agents.replayTtlSeconds, leaseSeconds: 120, waitSeconds: 10 },
    submit,
  );
  // Before its routes: the auth guard then knows them as this agent's (audience, challenge, tokens).
  app.agentResources.add({ name: tenant.name, path: tenant.path, credentials: tenant.credentials ?? [] });
  const hostGuard = hostCheck([...(publicHost ? [publicHost] : []), ...agents.allowedHosts], agents.allowedOrigins);
  mountMcp(app, withBuiltIns, runner, hostGuard);
  mountA2a(app, withBuiltIns, runner, () => baseUrl(app, ctx.config), hostGuard);
  if (tenant.httpEnvelope) mountHttp(app, withBuiltIns, runner, tenant.httpEnvelope, hostGuard);
}
