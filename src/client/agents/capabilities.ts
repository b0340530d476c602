import type { AgentConnection } from './connection.ts';
import { describeError } from './discovery.ts';

/** An agent's get_ap_capabilities answer (without the echoed `context`), or why there is none. */
export type CapabilitiesAnswer = { document: Record<string, unknown> } | { problem: string };

/** Asks the agent for get_ap_capabilities; never throws. */
export async function readCapabilities(agent: AgentConnection): Promise<CapabilitiesAnswer> {
  try {
    const answer = await agent.call('get_ap_capabilities');
    if (answer.ok) {
      const { context: _context, ...document } = answer.data;
      return { document };
    }
    return {
      problem: answer.error
        ? `${answer.error.code}: ${answer.error.message}`
        : `no readable payload (${JSON.stringify(answer.raw)?.slice(0, 200)})`,
    };
  } catch (err) {
    return { problem: `no readable payload (${describeError(err)})` };
  }
}
