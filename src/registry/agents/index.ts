import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import type { ReadProbes } from './probe-view.ts';
import { changeAgentRoutes } from './routes/change-agent.ts';
import { enrollAgentRoute } from './routes/enroll-agent.ts';
import { listAgentsRoute } from './routes/list-agents.ts';
import { AgentEntry } from './schemas.ts';
import type { EnrollmentContext } from './enrollment.ts';
import { probeStates, probingPlugin, scheduleProbe } from './probing/index.ts';

export { agentTypes, type AgentType } from './agent-types.ts';
export { enrollAgent, changeAgent, removeAgent, type Enrollment, type EnrollmentContext, type OnEnrolled } from './enrollment.ts';
export { allAgentsShown, type AgentRow } from './sql.ts';
export { operatorFor } from './operator.ts';
export { DESCRIPTION_MAX, NAME_MAX, isAgentType, isVisibility } from './profile.ts';
export { visibilities, type Visibility } from './visibility.ts';
export { probeStates, scheduleProbe, type ProbeState } from './probing/index.ts';

export interface AgentCatalogOptions {
  ctx: AppContext;
}

/**
 * The agent catalog (spec sections 1, 2 and 4): member organizations enroll the agents they
 * operate, on hosts they have proven control of, and everyone lists what their standing lets them
 * see, enriched from probing (probing/: a worker on a queue in the database, unless PROBE_WORKER
 * is false) and the authorization graph. Registers after the lookups plugin, whose index carries
 * the graph.
 */
export const agentCatalogPlugin = fp<AgentCatalogOptions>(
  async (app, { ctx }) => {
    app.addSchema(AgentEntry);
    await app.register(probingPlugin, { ctx, worker: ctx.config.probeWorker });
    const readProbes: ReadProbes = (db, urls) => probeStates(db, urls, ctx.clock.now());
    // The first probe is queued with the enrollment and the prober woken once it has committed.
    const enrollment: EnrollmentContext = { ...ctx, onEnrolled: scheduleProbe, enrolled: () => app.agentProber?.wake() };
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
