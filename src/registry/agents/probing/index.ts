/**
 * Probing enrolled agents (issue 19, section 2), the agent catalog's public face for it: the queue
 * enrollment adds to, the worker that probes (health, cached capabilities, compliance, the verified
 * badge, with their feed events) and the reader of what the list shows.
 */
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
