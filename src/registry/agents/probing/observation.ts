import type { AgentProtocol } from '../../../client/agents/index.ts';
import type { InventorySummary } from './inventory.ts';

/** What one probe of an agent saw, before it is judged (compliance.ts) and recorded (record.ts). */
export interface ProbeObservation {
  /** Whether the agent answered HTTP at all, on either protocol. */
  reachable: boolean;
  /** Time to the first HTTP answer (the MCP `initialize`, else the A2A agent card), when there was one. */
  latencyMs?: number;
  /** The protocols it was reached on. */
  protocols: AgentProtocol[];
  /** Why it could not be reached, or spoke neither protocol. */
  healthError?: string;
  /** A get_ap_capabilities answer fetched by this probe (absent when the cache was used, or it failed). */
  fetchedCapabilities?: unknown;
  /** A sales agent's products summed up, read with fresh capabilities (absent otherwise). */
  fetchedInventory?: InventorySummary;
  /** Why get_ap_capabilities could not be read, when it was asked and failed. */
  capabilitiesError?: string;
  /** The task names it lists (MCP tools, A2A skills), when it was reached. */
  listedTasks?: string[];
  /** What it answered to a call of a task that does not exist. */
  unknownTaskAnswer?: { errorObject: unknown } | { problem: string };
  /** Its JSON Web Key Set, or why none was read. */
  signingKeys?: { url: string; keys: unknown[] } | { url: string; problem: string };
}
