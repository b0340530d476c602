/**
 * Probing enrolled agents (issue 19, section 2), the agent catalog's public face for it: the queue
 * enrollment adds to, the worker that probes (health, cached capabilities, compliance, the verified
 * badge, with their feed events) and the reader of what the list shows.
 */
import fp from 'fastify-plugin';
import type { AppContext } from '../../../context.ts';
import { ProbeWorker, type ProbeSettings } from './worker.ts';

export { scheduleProbe } from './sql.ts';
export { ProbeWorker, defaultProbeSettings, type ProbeReport, type ProbeSettings } from './worker.ts';
export { probeStates, type CapabilitiesSummary, type Metric, type ProbeState } from './enrichment.ts';
export { checkNames, type CheckName, type ComplianceCheck, type ComplianceStatus } from './compliance.ts';
export type { BadgeRole } from './verification.ts';
export {
  ComplianceDetailSchema,
  ComplianceSummarySchema,
  ProbeCapabilities,
  ProbeCompliance,
  ProbeHealth,
  ProbeVerification,
  probingSchemas,
} from './schemas.ts';
export { complianceDetail } from './compliance-detail.ts';
export { complianceSummary, type ComplianceFacts, type ComplianceSummary } from './compliance-summary.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The agent prober, so enrollment can wake it and tests can run a round; absent when not started. */
    agentProber?: ProbeWorker;
  }
}

export interface ProbingOptions {
  ctx: AppContext;
  /** Overrides of the defaults (interval, capabilities TTL, concurrency, the credential sent). */
  settings?: Partial<ProbeSettings>;
  /** false: no background prober in this process (others sharing the database still probe). */
  worker?: boolean;
}

/**
 * The prober as a plugin, for the agent catalog to register: runs in the background from
 * `onReady` on `ctx.fetcher` and `ctx.clock`, and stops before the database closes.
 */
export const probingPlugin = fp<ProbingOptions>(async (app, { ctx, settings, worker = true }) => {
  if (!worker) return;
  const prober = new ProbeWorker({
    db: ctx.db,
    fetcher: ctx.fetcher,
    clock: ctx.clock,
    log: app.log,
    ...(settings ? { settings } : {}),
  });
  app.decorate('agentProber', prober);
  app.addHook('onReady', async () => prober.start());
  app.addHook('preClose', async () => prober.stop());
});
