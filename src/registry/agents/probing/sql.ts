import type { Queryable } from '../../../db/database.ts';
import type { ComplianceCheck, ComplianceStatus } from './compliance.ts';
import type { InventorySummary } from './inventory.ts';

/** Every query of agent probing (tables registry_agent_probes, migrations 0033 and 0042, and registry_agent_compliance_changes). */

/** A probe row with its agent's catalog type and visibility. */
export interface ProbeRow {
  agent_url: string;
  type: string;
  visibility: string;
  next_probe_at: Date;
  claimed_until: Date | null;
  probed_at: Date | null;
  reachable: boolean | null;
  latency_ms: number | null;
  protocols: string[];
  health_error: string | null;
  capabilities: unknown;
  capabilities_fetched_at: Date | null;
  inventory: InventorySummary | null;
  compliance: ComplianceCheck[];
  compliance_status: ComplianceStatus;
  verified: boolean;
  verified_role: string | null;
  verified_specialisms: string[];
  verified_at: Date | null;
  verification_reason: string | null;
  /** When the current compliance status began (null before the first probe). */
  compliance_status_since: Date | null;
  /** The last probe whose every check passed, and the last one where one failed. */
  last_passed_at: Date | null;
  last_failed_at: Date | null;
  /** The task names the agent listed at its last probe that reached it (null before). */
  tasks: string[] | null;
}

const columns = `p.agent_url, a.type, a.visibility, p.next_probe_at, p.claimed_until, p.probed_at, p.reachable, p.latency_ms, p.protocols, p.health_error,
  p.capabilities, p.capabilities_fetched_at, p.inventory, p.compliance, p.compliance_status, p.verified, p.verified_role, p.verified_specialisms,
  p.verified_at, p.verification_reason, p.compliance_status_since, p.last_passed_at, p.last_failed_at, p.tasks`;

/** Makes the agent due at `at` (a row it already has becomes due no later); the agent's row must exist. */
export async function scheduleProbe(tx: Queryable, agentUrl: string, at: Date): Promise<void> {
  await tx.query(
    `insert into registry_agent_probes (agent_url, next_probe_at) values ($1, $2)
     on conflict (agent_url) do update set next_probe_at = least(registry_agent_probes.next_probe_at, excluded.next_probe_at)`,
    [agentUrl, at],
  );
}

/**
 * Leases up to `limit` due agents to the caller, with what a probe needs of each. SKIP LOCKED lets
 * workers on other instances claim at the same moment without taking the same rows; the lease
 * brings an agent back if its worker dies mid-probe.
 */
export async function claimDue(db: Queryable, limit: number, now: Date, leaseUntil: Date): Promise<ProbeRow[]> {
  return db.query<ProbeRow>(
    `with due as (
       select agent_url from registry_agent_probes
       where next_probe_at <= $2 and (claimed_until is null or claimed_until < $2)
       order by next_probe_at limit $1 for update skip locked),
     claimed as (update registry_agent_probes p set claimed_until = $3 from due where p.agent_url = due.agent_url returning p.*)
     select ${columns} from claimed p join registry_agents a on a.agent_url = p.agent_url`,
    [limit, now, leaseUntil],
  );
}

/** The agent's probe row, locked for the rest of the transaction (undefined once it is unenrolled). */
export async function lockProbe(tx: Queryable, agentUrl: string): Promise<ProbeRow | undefined> {
  const [row] = await tx.query<ProbeRow>(
    `select ${columns} from registry_agent_probes p join registry_agents a on a.agent_url = p.agent_url where p.agent_url = $1 for update of p`,
    [agentUrl],
  );
  return row;
}

/** A probe's result as written: the row's state, probed now. */
export type ProbeUpdate = Omit<ProbeRow, 'type' | 'visibility' | 'claimed_until' | 'probed_at' | 'reachable'> & {
  probed_at: Date;
  reachable: boolean;
};

/** Writes a probe's result and releases the lease. */
export async function saveProbe(tx: Queryable, u: ProbeUpdate): Promise<void> {
  await tx.query(
    `update registry_agent_probes set next_probe_at = $2, claimed_until = null, probed_at = $3, reachable = $4, latency_ms = $5, protocols = $6,
       health_error = $7, capabilities = $8::jsonb, capabilities_fetched_at = $9, compliance = $10::jsonb, compliance_status = $11, verified = $12,
       verified_role = $13, verified_specialisms = $14, verified_at = $15, verification_reason = $16, inventory = $17::jsonb,
       compliance_status_since = $18, last_passed_at = $19, last_failed_at = $20, tasks = $21
     where agent_url = $1`,
    [
      u.agent_url,
      u.next_probe_at,
      u.probed_at,
      u.reachable,
      u.latency_ms,
      u.protocols,
      u.health_error,
      u.capabilities === undefined || u.capabilities === null ? null : JSON.stringify(u.capabilities),
      u.capabilities_fetched_at,
      JSON.stringify(u.compliance),
      u.compliance_status,
      u.verified,
      u.verified_role,
      u.verified_specialisms,
      u.verified_at,
      u.verification_reason,
      u.inventory === null ? null : JSON.stringify(u.inventory),
      u.compliance_status_since,
      u.last_passed_at,
      u.last_failed_at,
      u.tasks,
    ],
  );
}

/** Gives a claimed agent back to the queue, due at `at`, without a result (its probe failed unexpectedly). */
export async function releaseProbe(db: Queryable, agentUrl: string, at: Date): Promise<void> {
  await db.query('update registry_agent_probes set claimed_until = null, next_probe_at = $2 where agent_url = $1', [
    agentUrl,
    at,
  ]);
}

/** The probe rows of these agents (those that have one). */
export async function probeRows(db: Queryable, agentUrls: readonly string[]): Promise<ProbeRow[]> {
  if (agentUrls.length === 0) return [];
  return db.query<ProbeRow>(
    `select ${columns} from registry_agent_probes p join registry_agents a on a.agent_url = p.agent_url where p.agent_url = any($1::text[])`,
    [agentUrls],
  );
}

/** A change of an agent's checks, as its history keeps it. */
export interface ComplianceChange {
  changed_at: Date;
  previous_status: string;
  current_status: string;
  headline: string | null;
  checks_passing: number;
  checks_total: number;
}

/** How many changes an agent's history keeps: the oldest go as new ones come. */
export const historyKept = 50;

/** Records a change of the agent's checks and drops what falls beyond the kept history. */
export async function addComplianceChange(tx: Queryable, agentUrl: string, change: ComplianceChange): Promise<void> {
  await tx.query(
    `insert into registry_agent_compliance_changes (agent_url, changed_at, previous_status, current_status, headline, checks_passing, checks_total)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      agentUrl,
      change.changed_at,
      change.previous_status,
      change.current_status,
      change.headline,
      change.checks_passing,
      change.checks_total,
    ],
  );
  await tx.query(
    `delete from registry_agent_compliance_changes where agent_url = $1
       and id <= (select id from registry_agent_compliance_changes where agent_url = $1 order by id desc offset $2 limit 1)`,
    [agentUrl, historyKept],
  );
}

/** The agent's latest changes, newest first. */
export async function complianceChanges(db: Queryable, agentUrl: string, limit: number): Promise<ComplianceChange[]> {
  return db.query<ComplianceChange>(
    `select changed_at, previous_status, current_status, headline, checks_passing, checks_total
     from registry_agent_compliance_changes where agent_url = $1 order by id desc limit $2`,
    [agentUrl, limit],
  );
}
