import type { Queryable } from '../../../db/database.ts';
import { isRecord, strings } from '../../../protocol/json-values.ts';
import { summaryOfProbe } from './compliance-summary.ts';
import { complianceChanges, probeRows } from './sql.ts';

/** Changes of its checks an answer shows, newest first (the table keeps more: sql.historyKept). */
const historyShown = 20;

/**
 * An enrolled agent's compliance in full (the registry client's AgentComplianceDetail, and ours):
 * the summary the list and the feed carry, the checks of its last probe, since when its status
 * holds, its last passing and failing probes, and the latest changes of its checks. Undefined
 * when the agent has no probe row (it is not enrolled). Who may see it is the caller's to decide.
 */
export async function complianceDetail(db: Queryable, agentUrl: string, now: Date, intervalMs: number) {
  const [row] = await probeRows(db, [agentUrl]);
  if (!row) return undefined;
  const changes = await complianceChanges(db, agentUrl, historyShown);
  const summary = summaryOfProbe(row, now);
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    agent_url: agentUrl,
    ...summary,
    status_changed_at: iso(row.compliance_status_since),
    last_passed_at: iso(row.last_passed_at),
    last_failed_at: iso(row.last_failed_at),
    storyboards_passing: row.compliance.filter((c) => c.passed).length,
    storyboards_total: row.compliance.length,
    check_interval_hours: intervalMs / 3_600_000,
    declared_specialisms: isRecord(row.capabilities) ? strings(row.capabilities['specialisms']) : [],
    checked_at: iso(row.probed_at),
    checks: row.compliance,
    verification: {
      verified: row.verified,
      role: row.verified_role,
      specialisms: row.verified_specialisms,
      verified_at: iso(row.verified_at),
      ...(row.verification_reason && !row.verified ? { reason: row.verification_reason } : {}),
    },
    history: changes.map((c) => ({
      changed_at: c.changed_at.toISOString(),
      previous_status: c.previous_status,
      current_status: c.current_status,
      headline: c.headline,
      checks_passing: c.checks_passing,
      checks_total: c.checks_total,
    })),
  };
}
