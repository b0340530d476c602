import { performance } from 'node:perf_hooks';
import { FetchError } from '../../net/fetch-error.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { canonicalAgentUrl } from '../../protocol/agent-url.ts';
import { isRecord } from '../../protocol/json-values.ts';
import { issue, type Issue } from '../documents/adagents-validation/findings.ts';

/** How one agent URL answered: any HTTP answer counts as reachable (an MCP endpoint may well say 405 to a GET). */
export interface AgentReach {
  url: string;
  reachable: boolean;
  status: number | null;
  latency_ms: number | null;
  problem: string | null;
}

export const reachCaps = {
  /** Each agent's answer. */
  timeoutMs: 3_000,
  maxBytes: 64 * 1024,
  /** Agents asked per validation; a file listing more is checked for its first ones. */
  agents: 20,
  /** Asked at once. */
  concurrency: 4,
};

/**
 * Asks each distinct agent URL of `document` (in canonical form; URLs the validator refused are
 * skipped) through the SSRF-safe client, a few at a time, each capped in time and size. An agent
 * that gives no answer is a warning at its first entry's url: it may be down for a moment.
 */
export async function checkAgents(
  fetcher: SafeFetch,
  document: unknown,
): Promise<{ agents: AgentReach[]; warnings: Issue[] }> {
  const entries =
    isRecord(document) && Array.isArray(document['authorized_agents']) ? document['authorized_agents'] : [];
  const firstEntry = new Map<string, { url: string; index: number }>();
  entries.forEach((entry, index) => {
    if (!isRecord(entry) || typeof entry['url'] !== 'string') return;
    const canonical = canonicalAgentUrl(entry['url']);
    if (
      canonical === undefined ||
      !/^https?:\/\//.test(canonical) ||
      new URL(entry['url']).username !== '' ||
      new URL(entry['url']).password !== ''
    )
      return;
    if (!firstEntry.has(canonical)) firstEntry.set(canonical, { url: entry['url'], index });
  });
  const targets = [...firstEntry.values()].slice(0, reachCaps.agents);
  const agents: AgentReach[] = new Array(targets.length);
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const mine = next++;
      agents[mine] = await reach(fetcher, targets[mine]!.url);
    }
  };
  await Promise.all(Array.from({ length: Math.min(reachCaps.concurrency, targets.length) }, worker));
  const warnings = agents.flatMap((agent, i) =>
    agent.reachable
      ? []
      : [
          issue(
            'agent_unreachable',
            ['authorized_agents', targets[i]!.index, 'url'],
            `${agent.url} did not answer: ${agent.problem}`,
          ),
        ],
  );
  return { agents, warnings };
}

async function reach(fetcher: SafeFetch, url: string): Promise<AgentReach> {
  const started = performance.now();
  try {
    const res = await fetcher.fetch(url, {
      timeoutMs: reachCaps.timeoutMs,
      maxBytes: reachCaps.maxBytes,
      headers: { accept: 'application/json, text/event-stream' },
    });
    return {
      url,
      reachable: true,
      status: res.status,
      latency_ms: Math.round(performance.now() - started),
      problem: null,
    };
  } catch (err) {
    // A body over the cap still came from a live agent.
    if (err instanceof FetchError && err.reason === 'too_large')
      return { url, reachable: true, status: null, latency_ms: Math.round(performance.now() - started), problem: null };
    if (err instanceof FetchError)
      return { url, reachable: false, status: null, latency_ms: null, problem: err.message };
    throw err;
  }
}
