import { ApAgentError, callApAgent } from '../../client/index.ts';
import { AgentError } from '../../protocol/errors.ts';

type Json = Record<string, unknown>;

/** A registered governance agent as the seller calls it: its MCP URL and the credential the buyer gave. */
export interface GovernanceAgent {
  url: string;
  credential: string;
}

/** Codes a governance agent answers that the seller passes on as they are: they are about the buyer's plan or token. */
const passedOn = new Set(['PLAN_NOT_FOUND', 'CAMPAIGN_SUSPENDED', 'PERMISSION_DENIED']);

/**
 * Calls `check_governance` on the buyer's governance agent over MCP (the protocol's client, through
 * the SSRF-safe fetch) and answers its verdict. A plan the agent does not know or has suspended,
 * or a token it refuses, is the seller's answer too; anything else that keeps a verdict from
 * coming (no answer, a transport error, an error about the call itself) is GOVERNANCE_UNAVAILABLE:
 * the seller could not get a verdict, and halts.
 */
export async function askGovernance(agent: GovernanceAgent, fetch: typeof globalThis.fetch, args: Json): Promise<Json> {
  try {
    return await callApAgent({
      agentUrl: agent.url,
      credential: agent.credential,
      protocol: 'mcp',
      fetch,
      task: 'check_governance',
      arguments: args,
      timeoutMs: 10_000,
    });
  } catch (err) {
    if (err instanceof ApAgentError && err.kind === 'agent' && passedOn.has(err.code))
      throw new AgentError(err.code as 'PLAN_NOT_FOUND', `The governance agent at ${agent.url}: ${err.message}`);
    const why = err instanceof Error ? err.message : String(err);
    throw new AgentError(
      'GOVERNANCE_UNAVAILABLE',
      `The governance agent at ${agent.url} gave no verdict (${why}); nothing was committed.`,
      { retryAfter: 30 },
    );
  }
}
