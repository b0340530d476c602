import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import type { EnrollmentContext } from './enrollment.ts';
import { OwnAgentAccess, type OwnDeployment } from './own-agents.ts';
import {
  ComplianceSummarySchema,
  ProbeVerification,
  defaultProbeSettings,
  probeStates,
  probingPlugin,
  scheduleProbe,
} from './probing/index.ts';
import { agentComplianceRoute } from './routes/agent-compliance.ts';
import { changeAgentRoutes } from './routes/change-agent.ts';
import { enrollAgentRoute } from './routes/enroll-agent.ts';
import { listAgentsRoute, type ReadProbes } from './routes/list-agents.ts';
import { operatorRoute } from './routes/operator.ts';
import { searchAgentsRoute } from './routes/search-agents.ts';
import { AgentEntry, SearchResult } from './schemas/index.ts';
import { AgentSearch } from './search/agent-search.ts';
import { followAgentEvents } from './search/follow-agent-events.ts';

export { agentTypes, type AgentType } from './agent-types.ts';
export {
  enrollAgent,
  changeAgent,
  removeAgent,
  type Enrollment,
  type EnrollmentContext,
  type OnEnrolled,
} from './enrollment.ts';
export { allAgentsShown, type AgentRow } from './sql.ts';
export { operatorFor } from './operator.ts';
export { ownEnrollments, type OwnDeployment, type ServedAgent } from './own-agents.ts';
export { DESCRIPTION_MAX, NAME_MAX, isAgentType, isVisibility } from './profile.ts';
export { visibilities, type Visibility } from './visibility.ts';
export { probeStates, scheduleProbe, type ProbeState } from './probing/index.ts';
export { agentCatalogSettings, type AgentCatalogSettings } from './settings.ts';

export interface AgentCatalogOptions {
  ctx: AppContext;
  /** The agents served beside the registry: the prober calls them with their credential, on loopback. */
  own?: OwnDeployment;
}

/**
 * The agent catalog (spec sections 1, 2 and 4): member organizations enroll the agents they
 * operate, on hosts they have proven control of, and everyone lists what their standing lets them
 * see, enriched from probing (probing/: a worker on a queue in the database, unless PROBE_WORKER
 * is false) and the authorization graph. Registers after the lookups plugin, whose index carries
 * the graph.
 */
export const agentCatalogPlugin = fp<AgentCatalogOptions>(
  async (app, { ctx, own }) => {
    app.addSchema(ProbeVerification);
    app.addSchema(ComplianceSummarySchema);
    app.addSchema(AgentEntry);
    app.addSchema(SearchResult);
    const access = own ? new OwnAgentAccess(own) : undefined;
    const settings = access
      ? {
          authorization: (url: string) => access.authorization(url),
          fetcherFor: (url: string) => access.fetcherFor(url),
        }
      : undefined;
    await app.register(probingPlugin, { ctx, worker: ctx.config.probeWorker, ...(settings ? { settings } : {}) });
    // onClose runs after the prober's preClose has stopped it: no probe is left using the client.
    if (access) app.addHook('onClose', async () => access.close());
    const readProbes: ReadProbes = (db, urls) => probeStates(db, urls, ctx.clock.now());
    // The first probe is queued with the enrollment and the prober woken once it has committed.
    const enrollment: EnrollmentContext = {
      ...ctx,
      onEnrolled: scheduleProbe,
      enrolled: () => app.agentProber?.wake(),
    };
    enrollAgentRoute(app, ctx, enrollment);
    app.decorate('agentEnrollment', enrollment);
    changeAgentRoutes(app, ctx);
    listAgentsRoute(app, ctx.db, readProbes, () => app.authorizationIndex.index);
    const search = new AgentSearch(ctx.clock, () => app.authorizationIndex.index, app.catalogMembers);
    searchAgentsRoute(app, search);
    followAgentEvents(app, ctx, search);
    app.decorate('agentSearch', search);
    operatorRoute(app, ctx.db, () => app.authorizationIndex.index);
    agentComplianceRoute(
      app,
      ctx.db,
      ctx.clock,
      () => app.agentProber?.settings.intervalMs ?? defaultProbeSettings.intervalMs,
    );
  },
  { name: 'agent-catalog', dependencies: ['lookups'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** What enrolling needs in this process (the operator's CLI enrolls through the control socket with it). */
    agentEnrollment: EnrollmentContext;
    /** The in-memory inventory profiles and search (tests reload and wait on them). */
    agentSearch: AgentSearch;
  }
}
