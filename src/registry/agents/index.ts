import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import type { ReadProbes } from './probe-view.ts';
import { changeAgentRoutes } from './routes/change-agent.ts';
import { enrollAgentRoute } from './routes/enroll-agent.ts';
import { listAgentsRoute } from './routes/list-agents.ts';
import { AgentEntry } from './schemas.ts';
import type { EnrollmentContext, OnEnrolled } from './enrollment.ts';

export { agentTypes, type AgentType } from './agent-types.ts';
export { enrollAgent, changeAgent, removeAgent, type Enrollment, type EnrollmentContext, type OnEnrolled } from './enrollment.ts';
export { allAgentsShown, type AgentRow } from './sql.ts';
export { operatorFor } from './operator.ts';

export interface AgentCatalogOptions {
  ctx: AppContext;
  /** What probing knows of each agent (health, capabilities, compliance, verification). */
  readProbes: ReadProbes;
  /** Called in the enrolling transaction: probing schedules the first probe. */
  onEnrolled: OnEnrolled;
}

/**
 * The agent catalog (spec sections 1, 2 and 4): member organizations enroll the agents they
 * operate, on hosts they have proven control of, and everyone lists what their standing lets them
 * see, enriched from probing and the authorization graph. Registers after the lookups plugin,
 * whose index carries the graph.
 */
export const agentCatalogPlugin = fp<AgentCatalogOptions>(
  async (app, { ctx, readProbes, onEnrolled }) => {
    app.addSchema(AgentEntry);
    const enrollment = { ...ctx, onEnrolled };
    enrollAgentRoute(app, ctx, enrollment);
    app.decorate('agentEnrollment', enrollment);
    changeAgentRoutes(app, ctx);
    listAgentsRoute(app, ctx.db, readProbes, () => app.authorizationIndex.index);
  },
  { name: 'agent-catalog', dependencies: ['lookups'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** What enrolling needs in this process (the operator's CLI enrolls through the control socket with it). */
    agentEnrollment: EnrollmentContext;
  }
}
