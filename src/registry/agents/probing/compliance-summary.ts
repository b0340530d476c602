import type { ComplianceCheck, ComplianceStatus } from './compliance.ts';
import type { ProbeRow } from './sql.ts';

const day = 24 * 3_600_000;
/** A headline quotes what the agent answered (a schema error, a fetch failure): kept to this length. */
const headlineMax = 500;

/** What the compliance summary reads of an agent's probes. */
export interface ComplianceFacts {
  status: ComplianceStatus;
  checks: readonly ComplianceCheck[];
  /** The last probe (null before the first). */
  checkedAt: Date | null;
  /** When the current status began. */
  since: Date | null;
  verified: boolean;
  verifiedRole: string | null;
}

export type TrackOutcome = 'pass' | 'fail' | 'skip';

/**
 * An agent's compliance as the protocol's registry client reads it (its AgentCompliance): the
 * status, each check as a track, how many days the status has held, the last check and its
 * headline, and the badge. The registry models no lifecycle stages: an enrolled agent is listed
 * and probed as the production agent it is (docs/decisions.md).
 */
export interface ComplianceSummary {
  status: ComplianceStatus;
  lifecycle_stage: 'production';
  tracks: Record<string, TrackOutcome>;
  streak_days: number;
  last_checked_at: string | null;
  headline: string | null;
  verified: boolean;
  verified_roles: string[];
}

/** Each check's outcome by name (the feed's `tracks`). */
export function tracksOf(checks: readonly ComplianceCheck[]): Record<string, TrackOutcome> {
  return Object.fromEntries(checks.map((c) => [c.name, c.skipped ? 'skip' : c.passed ? 'pass' : 'fail']));
}

/** The first check that failed (one that ran before one skipped), in a line; null before any check. */
export function headlineOf(checks: readonly ComplianceCheck[]): string | null {
  if (checks.length === 0) return null;
  const failed = checks.find((c) => !c.passed && !c.skipped) ?? checks.find((c) => !c.passed);
  const line = failed ? `${failed.name}: ${failed.message}` : `all ${checks.length} checks pass`;
  return line.length > headlineMax ? `${line.slice(0, headlineMax - 1)}…` : line;
}

export function complianceSummary(facts: ComplianceFacts, now: Date): ComplianceSummary {
  return {
    status: facts.status,
    lifecycle_stage: 'production',
    tracks: tracksOf(facts.checks),
    streak_days: facts.since ? Math.max(0, Math.floor((now.getTime() - facts.since.getTime()) / day)) : 0,
    last_checked_at: facts.checkedAt?.toISOString() ?? null,
    headline: headlineOf(facts.checks),
    verified: facts.verified,
    verified_roles: facts.verified && facts.verifiedRole ? [facts.verifiedRole] : [],
  };
}

/** The summary of an agent's last probes, as its probe row keeps them. */
export function summaryOfProbe(row: ProbeRow, now: Date): ComplianceSummary {
  const { compliance_status, compliance, probed_at, compliance_status_since, verified, verified_role } = row;
  return complianceSummary(
    {
      status: compliance_status,
      checks: compliance,
      checkedAt: probed_at,
      since: compliance_status_since,
      verified,
      verifiedRole: verified_role,
    },
    now,
  );
}
