import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { baseUrl } from '../../http/base-url.ts';
import { mountA2a } from './a2a.ts';
import { capabilitiesTask } from './capabilities.ts';
import { hostCheck } from './host-check.ts';
import { mountMcp } from './mcp.ts';
import { createRunner } from './runner.ts';
import type { Tenant } from './task.ts';

export type { AgentTask, Tenant, TaskContext } from './task.ts';

/** Serves a tenant's tasks, plus `get_ap_capabilities`, over MCP at `<path>/mcp` and A2A at `<path>/a2a`. */
export function mountTenant(app: FastifyInstance, ctx: AppContext, tenant: Tenant): void {
  const { agents } = ctx.config;
  const publicHost = ctx.config.publicUrl ? new URL(ctx.config.publicUrl).hostname : undefined;
  const withCapabilities: Tenant = {
    ...tenant,
    tasks: [capabilitiesTask(tenant, { replayTtlSeconds: agents.replayTtlSeconds, webhookAlgorithms: [] }), ...tenant.tasks],
  };
  const runner = createRunner(ctx.db, withCapabilities, {
    clock: ctx.clock,
    replayTtlSeconds: agents.replayTtlSeconds,
    leaseSeconds: 120,
    waitSeconds: 10,
  });
  const hostGuard = hostCheck([...(publicHost ? [publicHost] : []), ...agents.allowedHosts], agents.allowedOrigins);
  mountMcp(app, withCapabilities, runner, hostGuard);
  mountA2a(app, withCapabilities, runner, () => baseUrl(app, ctx.config), hostGuard);
}
