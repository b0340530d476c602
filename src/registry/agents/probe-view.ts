import type { Queryable } from '../../db/database.ts';

/** What probing knows of an agent, as the list's enrichments show it. */
export interface ProbeView {
  health: Record<string, unknown>;
  /** The agent's get_ap_capabilities answer, when one was fetched. */
  capabilities: { document: Record<string, unknown>; fetched_at: string; stale: boolean } | null;
  compliance: Record<string, unknown> | null;
  verification: Record<string, unknown> | null;
}

export type ReadProbes = (db: Queryable, agentUrls: readonly string[]) => Promise<Map<string, ProbeView>>;
