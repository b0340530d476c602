import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Readiness } from '../../http/health.ts';
import type { FeedHub } from '../feed/index.ts';
import type { CatalogMembers, IndexSource } from '../lookups/index.ts';
import type { EnrollmentContext } from './enrollment.ts';
import { OwnAgentAccess, type OwnDeployment } from './own-agents.ts';
import {
  ComplianceSummarySchema,
  ProbeVerification,
  ProbeWorker,
  defaultProbeSettings,
  probeStates,
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

export type { AgentSearch } from './search/agent-search.ts';
export type { ProbeWorker } from './probing/index.ts';

/** The catalog's shared schemas, added app-wide: its routes answer with them. */
export const agentCatalogSchemas = [ProbeVerification, ComplianceSummarySchema, AgentEntry, SearchResult];

/** What the agent catalog offers: enrolling (the dashboard, the demo, the CLI's control socket), its search and its prober. */
export interface AgentCatalog {
  /** What enrolling needs in this process: the first probe is queued with the enrollment and the prober woken once it has committed. */
  enrollment: EnrollmentContext;
  /** The in-memory inventory profiles and search. */
  search: AgentSearch;
  /** The background prober; absent with PROBE_WORKER=false (others sharing the database still probe). */
  prober: ProbeWorker | undefined;
  /** Closes what calls this deployment's own agents; after the prober has stopped. */
  close(): Promise<void>;
}

/**
 * Builds the catalog's services over the lookups' index and members. `own`: the agents served
 * beside the registry, which the prober calls with their credential, on loopback.
 */
export function createAgentCatalog(parts: {
  ctx: AppContext;
  index: IndexSource;
  members: CatalogMembers;
  own: OwnDeployment | undefined;
  log: FastifyBaseLogger;
}): AgentCatalog {
  const { ctx, index, members, own, log } = parts;
  const access = own ? new OwnAgentAccess(own) : undefined;
  const settings = access && {
    authorization: (url: string) => access.authorization(url),
    fetcherFor: (url: string) => access.fetcherFor(url),
  };
  const prober = ctx.config.probeWorker
    ? new ProbeWorker({ db: ctx.db, fetcher: ctx.fetcher, clock: ctx.clock, log, ...(settings ? { settings } : {}) })
    : undefined;
  return {
    enrollment: { ...ctx, onEnrolled: scheduleProbe, enrolled: () => prober?.wake() },
    search: new AgentSearch(ctx.clock, () => index.index, members),
    prober,
    close: async () => access?.close(),
  };
}

export interface AgentCatalogOptions {
  ctx: AppContext;
  catalog: AgentCatalog;
  /** The lookups' authorization index, which carries the graph the listing is enriched from. */
  index: IndexSource;
  /** Wakes the search when an agent changes on any instance. */
  hub: FeedHub;
  /** `/readyz` waits for the profiles to be derived. */
  readiness: Readiness;
}

/**
 * The agent catalog (spec sections 1, 2 and 4): member organizations enroll the agents they
 * operate, on hosts they have proven control of, and everyone lists what their standing lets them
 * see, enriched from probing (probing/: a worker on a queue in the database, started here) and the
 * authorization graph.
 */
export const agentCatalogPlugin: FastifyPluginAsync<AgentCatalogOptions> = async (app, options) => {
  const { ctx, catalog, index, hub, readiness } = options;
  const { prober } = catalog;
  if (prober) {
    app.addHook('onReady', async () => prober.start());
    app.addHook('preClose', async () => prober.stop());
  }
  // onClose runs after the prober's preClose has stopped it: no probe is left using the client.
  app.addHook('onClose', async () => catalog.close());
  const readProbes: ReadProbes = (db, urls) => probeStates(db, urls, ctx.clock.now());
  enrollAgentRoute(app, ctx, catalog.enrollment);
  changeAgentRoutes(app, ctx);
  listAgentsRoute(app, ctx.db, readProbes, () => index.index);
  searchAgentsRoute(app, catalog.search);
  followAgentEvents(app, ctx, catalog.search, { hub, index, readiness });
  operatorRoute(app, ctx.db, () => index.index);
  agentComplianceRoute(app, ctx.db, ctx.clock, () => prober?.settings.intervalMs ?? defaultProbeSettings.intervalMs);
};
