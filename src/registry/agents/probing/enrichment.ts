import type { Queryable } from '../../../db/database.ts';
import { isRecord, strings } from '../../../protocol/json-values.ts';
import type { ComplianceCheck, ComplianceStatus } from './compliance.ts';
import { summaryOfProbe, type ComplianceSummary } from './compliance-summary.ts';
import { probeRows, type ProbeRow } from './sql.ts';
import { defaultProbeSettings } from './worker.ts';

/** What the agent list shows of an agent's probes (schemas.ts has the wire schemas). */
export type ProbeState = {
  health: {
    /** null before the first probe. */
    reachable: boolean | null;
    /** Absent when it was not reached. */
    latency_ms?: number;
    protocols: string[];
    last_probed_at: string | null;
    error?: string;
  };
  /** null until a get_ap_capabilities answer was read. */
  capabilities: CapabilitiesSummary | null;
  compliance: { status: ComplianceStatus; checked_at: string | null; checks: ComplianceCheck[] };
  verification: {
    verified: boolean;
    role: string | null;
    specialisms: string[];
    verified_at: string | null;
    reason?: string;
  };
  /** The compliance as the protocol's registry client reads it (compliance-summary.ts). */
  summary: ComplianceSummary;
  /** The task names the agent listed at its last probe that reached it; null before. */
  tasks: string[] | null;
};

export type CapabilitiesSummary = {
  /** The agent's get_ap_capabilities answer, as it was fetched. */
  document: Record<string, unknown>;
  fetched_at: string;
  /** Seconds since it was fetched: the cache's staleness, shown. */
  age_seconds: number;
  /** Older than the refresh interval (the agent could not be asked again since). */
  stale: boolean;
  supported_protocols: string[];
  specialisms: string[];
  creative_capabilities?: Record<string, unknown>;
  signals_capabilities?: Record<string, unknown>;
  /** measurement.metrics[] as the agent claims them; every accreditation carries verified_by_registry: false. */
  metrics?: Metric[];
};

export interface Metric {
  metric_id: string;
  accreditations: Array<Record<string, unknown> & { accrediting_body: string; verified_by_registry: false }>;
  [field: string]: unknown;
}

/**
 * The probing state of each agent asked for that has one (enrolled agents get their row at
 * enrollment), by agent URL. `now` dates the capabilities' age.
 */
export async function probeStates(
  db: Queryable,
  agentUrls: readonly string[],
  now: Date = new Date(),
  capabilitiesTtlMs = defaultProbeSettings.capabilitiesTtlMs,
): Promise<Map<string, ProbeState>> {
  const rows = await probeRows(db, agentUrls);
  return new Map(rows.map((row) => [row.agent_url, stateOf(row, now, capabilitiesTtlMs)]));
}

function stateOf(row: ProbeRow, now: Date, ttlMs: number): ProbeState {
  return {
    health: {
      reachable: row.reachable,
      ...(row.latency_ms !== null && row.reachable ? { latency_ms: row.latency_ms } : {}),
      protocols: row.protocols,
      last_probed_at: row.probed_at?.toISOString() ?? null,
      ...(row.health_error ? { error: row.health_error } : {}),
    },
    capabilities:
      row.capabilities_fetched_at && isRecord(row.capabilities)
        ? summary(row.capabilities, row.capabilities_fetched_at, now, ttlMs)
        : null,
    compliance: {
      status: row.compliance_status,
      checked_at: row.probed_at?.toISOString() ?? null,
      checks: row.compliance,
    },
    verification: {
      verified: row.verified,
      role: row.verified_role,
      specialisms: row.verified_specialisms,
      verified_at: row.verified_at?.toISOString() ?? null,
      ...(row.verification_reason && !row.verified ? { reason: row.verification_reason } : {}),
    },
    summary: summaryOfProbe(row, now),
    tasks: row.tasks,
  };
}

function summary(doc: Record<string, unknown>, fetchedAt: Date, now: Date, ttlMs: number): CapabilitiesSummary {
  const ageMs = Math.max(0, now.getTime() - fetchedAt.getTime());
  const measurement = isRecord(doc['measurement']) ? doc['measurement'] : undefined;
  return {
    document: doc,
    fetched_at: fetchedAt.toISOString(),
    age_seconds: Math.floor(ageMs / 1000),
    stale: ageMs > ttlMs,
    supported_protocols: strings(doc['supported_protocols']),
    specialisms: strings(doc['specialisms']),
    ...(isRecord(doc['creative']) ? { creative_capabilities: doc['creative'] } : {}),
    ...(isRecord(doc['signals']) ? { signals_capabilities: doc['signals'] } : {}),
    ...(measurement && Array.isArray(measurement['metrics']) ? { metrics: metrics(measurement['metrics']) } : {}),
  };
}

/** The metric catalog as claimed; accreditations are vendor claims, never endorsed by the registry (spec section 2). */
function metrics(items: unknown[]): Metric[] {
  return items
    .filter((m): m is Record<string, unknown> => isRecord(m) && typeof m['metric_id'] === 'string')
    .map((m) => ({
      ...m,
      metric_id: m['metric_id'] as string,
      accreditations: (Array.isArray(m['accreditations']) ? m['accreditations'] : [])
        .filter((a): a is Record<string, unknown> => isRecord(a) && typeof a['accrediting_body'] === 'string')
        .map((a) => ({
          ...a,
          accrediting_body: a['accrediting_body'] as string,
          verified_by_registry: false as const,
        })),
    }));
}
