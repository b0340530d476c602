import type { Database } from '../../../db/database.ts';
import { appendEvents, feedEvent, type NewEvent } from '../../feed/index.ts';
import { complianceChecks, complianceStatus } from './compliance.ts';
import { complianceSummary, headlineOf, tracksOf } from './compliance-summary.ts';
import type { ProbeObservation } from './observation.ts';
import * as sql from './sql.ts';
import { verify } from './verification.ts';

const actor = 'pipeline:agent-prober';

export interface RecordTiming {
  /** When the probe began: a result older than one already recorded is dropped. */
  startedAt: Date;
  /** When it is recorded (the clock's now). */
  now: Date;
  /** When the agent is next due. */
  nextAt: Date;
  /** Whether the probe used the cached capabilities instead of asking for them. */
  usedCache: boolean;
}

export type RecordOutcome = 'recorded' | 'superseded' | 'unenrolled';

/** The task names kept of an agent's listing (its tools count is counted from them): an agent answers what it likes. */
const tasksKept = 500;
const taskNameMax = 128;
const keptTasks = (tasks: readonly string[]) =>
  [...new Set(tasks)].slice(0, tasksKept).map((t) => t.slice(0, taskNameMax));

/**
 * Records a probe in one transaction with the events its changes make. The agent's row is locked
 * first and the new state compared with what it holds, so however many workers probe (a lease that
 * lapsed mid-probe lets a second one in), each change is compared once against the state before it
 * and emits its event exactly once; a probe that began before the recorded one is dropped.
 */
export async function recordProbe(
  db: Database,
  agentUrl: string,
  seen: ProbeObservation,
  timing: RecordTiming,
): Promise<RecordOutcome> {
  return db.transaction(async (tx) => {
    const before = await sql.lockProbe(tx, agentUrl);
    if (!before) return 'unenrolled';
    if (before.probed_at && before.probed_at > timing.startedAt) return 'superseded';
    const fetched = seen.fetchedCapabilities !== undefined;
    // The document judged: this probe's, else the cache it chose to use. A failed fetch judges none.
    const inForce = fetched ? seen.fetchedCapabilities : timing.usedCache ? before.capabilities : undefined;
    const checks = complianceChecks(seen, inForce);
    const status = complianceStatus(checks);
    const verification = verify(before.type, checks, inForce);

    const events: NewEvent[] = [];
    const event = (type: NewEvent['event_type'], payload: Record<string, unknown>) =>
      events.push(feedEvent(type, agentUrl, actor, payload));
    // Its status's start, and the last passing and failing probes, carried from probe to probe.
    const since =
      status !== before.compliance_status || before.compliance_status_since === null
        ? timing.now
        : before.compliance_status_since;
    const lastPassed = status === 'passing' ? timing.now : before.last_passed_at;
    const lastFailed = status === 'degraded' || status === 'failing' ? timing.now : before.last_failed_at;
    const tracks = tracksOf(checks);
    if (JSON.stringify(tracksOf(before.compliance)) !== JSON.stringify(tracks)) {
      const passing = checks.filter((c) => c.passed).length;
      const headline = headlineOf(checks);
      await sql.addComplianceChange(tx, agentUrl, {
        changed_at: timing.now,
        previous_status: before.compliance_status,
        current_status: status,
        headline,
        checks_passing: passing,
        checks_total: checks.length,
      });
      const verifiedRole = verification.verified ? (verification.role ?? null) : null;
      event('agent.compliance_changed', {
        agent_url: agentUrl,
        previous_status: before.compliance_status,
        current_status: status,
        headline,
        tracks,
        storyboards_passing: passing,
        storyboards_total: checks.length,
        storyboards: checks.map((c) => ({
          storyboard_id: c.name,
          status: c.skipped ? 'skipped' : c.passed ? 'passing' : 'failing',
          steps_passed: c.passed ? 1 : 0,
          steps_total: 1,
        })),
        // What a follower keeps of the agent's compliance (the registry client's AgentCompliance).
        compliance_summary: complianceSummary(
          { status, checks, checkedAt: timing.now, since, verified: verification.verified, verifiedRole },
          timing.now,
        ),
      });
    }
    const apVersion = verification.apVersion ? { ap_version: verification.apVersion } : {};
    const roleChanged = before.verified && verification.verified && before.verified_role !== verification.role;
    if (before.verified && (!verification.verified || roleChanged)) {
      event('agent.verification_lost', {
        agent_url: agentUrl,
        role: before.verified_role,
        reason: verification.reason ?? `its role is now ${verification.role}`,
        ...apVersion,
      });
    }
    if (verification.verified && (!before.verified || roleChanged)) {
      event('agent.verification_earned', {
        agent_url: agentUrl,
        role: verification.role,
        verified_specialisms: verification.specialisms,
        ...apVersion,
      });
    }

    await sql.saveProbe(tx, {
      agent_url: agentUrl,
      next_probe_at: timing.nextAt,
      probed_at: timing.now,
      reachable: seen.reachable,
      latency_ms: seen.latencyMs ?? null,
      protocols: seen.protocols,
      health_error: seen.healthError ?? null,
      // Kept when this probe did not fetch it: the list shows it with its age.
      capabilities: fetched ? seen.fetchedCapabilities : before.capabilities,
      capabilities_fetched_at: fetched ? timing.now : before.capabilities_fetched_at,
      inventory: seen.fetchedInventory ?? before.inventory,
      compliance: checks,
      compliance_status: status,
      verified: verification.verified,
      verified_role: verification.verified ? (verification.role ?? null) : null,
      verified_specialisms: verification.verified ? verification.specialisms : [],
      verified_at: verification.verified ? (before.verified && !roleChanged ? before.verified_at : timing.now) : null,
      verification_reason: verification.reason ?? null,
      compliance_status_since: since,
      last_passed_at: lastPassed,
      last_failed_at: lastFailed,
      tasks: seen.listedTasks ? keptTasks(seen.listedTasks) : before.tasks,
    });
    // The feed shows the public catalog (as enrollment does): a private or members-only agent's probes change no event.
    if (before.visibility === 'public') await appendEvents(tx, events);
    return 'recorded';
  });
}
