import type { FastifyInstance } from 'fastify';
import type { TaskWorker, WebhookDeliverer } from '../agents/index.ts';
import type { Readiness } from '../http/health.ts';
import type { RouteEntry } from '../http/route-table.ts';
import type { BackgroundPass } from '../jobs/background-pass.ts';
import type { AgentSearch, EnrollmentContext, ProbeWorker } from '../registry/agents/index.ts';
import type { Crawler } from '../registry/crawler/index.ts';
import type { DeploymentAgentsOutcome, FirstRun } from '../registry/demo/index.ts';
import type { FeedHub } from '../registry/feed/index.ts';
import type { IndexFollower } from '../registry/lookups/index.ts';
import type { RegistrySummary } from '../registry/stats/index.ts';

/**
 * The services the composition root built, on the root app for tests, the CLI's control socket
 * and operators' tooling. No capability reads them: each is handed what it uses as an option
 * (eslint/decorator-boundaries.js refuses a read in a capability's folder).
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, in order; tests and the OpenAPI check are built from it. */
    routeTable: RouteEntry[];
    /** What /readyz waits for; tests wait on `ready()` as a deployment waits on /readyz. */
    readiness: Readiness;
    /** The process's feed hub (open streams, for metrics and tests). */
    feedHub: FeedHub;
    /** The feed's retention job, so a test can wait for its next pass instead of sleeping. */
    feedRetention: BackgroundPass;
    /** This process's authorization index and where it stands in the feed (tests wait on it). */
    authorizationIndex: IndexFollower;
    /** Crawls one domain now (`ap crawl` through the control socket, tests). */
    crawler: Crawler;
    /** The stats' background summary (tests refresh it instead of waiting a minute). */
    registrySummary: RegistrySummary;
    /** What enrolling needs in this process (the operator's CLI enrolls through the control socket with it). */
    agentEnrollment: EnrollmentContext;
    /** The in-memory inventory profiles and search (tests reload and wait on them). */
    agentSearch: AgentSearch;
    /** The agent prober, so tests can run a round; absent when not started. */
    agentProber?: ProbeWorker;
    /** Settles once the demo has enrolled this deployment's agents (after the server listens); absent without the demo. */
    demoAgents?: Promise<DeploymentAgentsOutcome>;
    /** What the demo's first start made (admin key, first user), filled once it is seeded: `ap serve` shows it once. */
    firstRun: FirstRun;
    /** The long-task worker, so a test can `watch` its runs instead of polling; absent when no agent is served. */
    taskWorker?: TaskWorker;
    /** The webhook outbox's sender, so a test can `watch` its attempts instead of polling; absent when no agent is served. */
    webhookDeliverer?: WebhookDeliverer;
    /** The tenants' background passes by `<tenant>:<pass>`, so a test can wake one and await it; absent when no agent is served. */
    agentPasses?: ReadonlyMap<string, BackgroundPass>;
  }
}

/** What the root decorates: the services above, each once; one left undefined is not decorated. */
export type RootServices = Pick<
  FastifyInstance,
  | 'routeTable'
  | 'readiness'
  | 'feedHub'
  | 'feedRetention'
  | 'authorizationIndex'
  | 'crawler'
  | 'registrySummary'
  | 'firstRun'
  | 'agentEnrollment'
  | 'agentSearch'
  | 'agentProber'
  | 'demoAgents'
  | 'taskWorker'
  | 'webhookDeliverer'
  | 'agentPasses'
>;

export function decorateServices(app: FastifyInstance, services: RootServices): void {
  for (const [name, service] of Object.entries(services))
    if (service !== undefined) app.decorate<unknown>(name, service);
}
