import {
  describeError,
  discoverAgent,
  readCapabilities,
  type AgentConnection,
  type AgentProtocol,
} from '../../../client/agents/index.ts';
import type { SafeFetch } from '../../../net/safe-fetch.ts';
import { readInventory, sellsMedia } from './inventory.ts';
import type { ProbeObservation } from './observation.ts';

export interface ProbeAgentOptions {
  /** The SSRF-safe client: every request to the agent goes through it. */
  fetcher: SafeFetch;
  /** Sent as `Authorization` to agents that want a credential, or none. */
  authorization?: string;
}

// A name no agent offers, to see how it answers a call it cannot serve.
const unknownTask = 'ap_registry_probe_no_such_task';

/**
 * Probes one agent over the network: MCP at its URL and A2A at its agent card, timed; then, over
 * the first protocol it speaks, its capabilities (unless `cachedCapabilities`, still fresh, is
 * given), its task list and its answer to an unknown task; and its JWKS. Never throws: whatever
 * fails is what was observed.
 */
export async function probeAgent(
  agentUrl: string,
  cachedCapabilities: unknown,
  options: ProbeAgentOptions,
): Promise<ProbeObservation> {
  const found = await discoverAgent(agentUrl, {
    fetcher: options.fetcher,
    clientName: 'ap-registry-probe',
    ...(options.authorization ? { authorization: options.authorization } : {}),
  });
  const protocols: AgentProtocol[] = found.connections.map((c) => c.protocol);
  const seen: ProbeObservation = { reachable: found.latencyMs !== undefined, protocols };
  if (found.latencyMs !== undefined) seen.latencyMs = found.latencyMs;
  const agent = found.connections[0];
  if (!agent) {
    seen.healthError =
      found.fetchFailure && found.latencyMs === undefined
        ? `${found.fetchFailure.reason}: ${found.fetchFailure.message}`
        : `speaks neither MCP nor A2A: ${found.problems.mcp ?? 'no answer'}`;
    return seen;
  }
  try {
    let capabilities = cachedCapabilities;
    if (capabilities === undefined) {
      const answer = await readCapabilities(agent);
      if ('document' in answer) capabilities = seen.fetchedCapabilities = answer.document;
      else seen.capabilitiesError = answer.problem;
    }
    seen.listedTasks = await agent.listTasks().catch(() => []);
    // With the capabilities, once a day: what a sales agent's products say of its inventory.
    if (seen.fetchedCapabilities !== undefined && sellsMedia(seen.fetchedCapabilities, seen.listedTasks)) {
      const inventory = await readInventory(agent);
      if (inventory) seen.fetchedInventory = inventory;
    }
    seen.unknownTaskAnswer = await unknownTaskAnswer(agent);
    seen.signingKeys = await readJwks(options.fetcher, jwksUrl(agentUrl, capabilities));
  } finally {
    await found.close();
  }
  return seen;
}

/** The webhook-signing keys' origin the capabilities name (identity.key_origins), else the agent's own. */
function jwksUrl(agentUrl: string, capabilities: unknown): string {
  const origins = (capabilities as { identity?: { key_origins?: Record<string, unknown> } } | undefined)?.identity
    ?.key_origins;
  const declared = typeof origins?.['webhook_signing'] === 'string' ? origins['webhook_signing'] : undefined;
  let origin = new URL(agentUrl).origin;
  if (declared) {
    try {
      origin = new URL(declared).origin;
    } catch {
      // A malformed origin is the schema check's to report; the agent's own is looked at instead.
    }
  }
  return `${origin}/.well-known/jwks.json`;
}

async function unknownTaskAnswer(agent: AgentConnection): Promise<ProbeObservation['unknownTaskAnswer']> {
  try {
    const answer = await agent.call(unknownTask);
    if (answer.ok) return { problem: `a call of an unknown task (${unknownTask}) was answered as a success` };
    if (!answer.error)
      return { problem: 'a call of an unknown task was answered as an error without a readable error object' };
    return { errorObject: answer.error };
  } catch (err) {
    return { problem: `a call of an unknown task was not answered with the error envelope: ${describeError(err)}` };
  }
}

async function readJwks(fetcher: SafeFetch, url: string): Promise<NonNullable<ProbeObservation['signingKeys']>> {
  try {
    const response = await fetcher.fetch(url, { headers: { accept: 'application/json' } });
    if (response.status !== 200) return { url, problem: `answered ${response.status}` };
    const body = response.json() as { keys?: unknown };
    return Array.isArray(body?.keys)
      ? { url, keys: body.keys }
      : { url, problem: 'is not a JSON Web Key Set (no keys array)' };
  } catch (err) {
    return { url, problem: describeError(err) };
  }
}
