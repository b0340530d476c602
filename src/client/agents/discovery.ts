import { performance } from 'node:perf_hooks';
import { FetchError } from '../../net/fetch-error.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { connectA2a, connectMcp, type AgentConnection, type AgentProtocol } from './connection.ts';
import { fetchThrough, type FetchAdapterOptions } from './fetch-adapter.ts';

export interface DiscoverOptions extends Pick<FetchAdapterOptions, 'timeoutMs' | 'maxBytes' | 'signal'> {
  /** The SSRF-safe client: every request to the agent goes through it. */
  fetcher: SafeFetch;
  /** Sent as `Authorization` on every request, or none. */
  authorization?: string;
  clientName?: string;
}

/** An agent found at a URL: the protocols it answered on, connected, and what the attempts showed. */
export interface AgentDiscovery {
  /** The protocols connected, MCP first. */
  connections: AgentConnection[];
  mcp?: AgentConnection;
  a2a?: AgentConnection;
  /** Time to the first HTTP answer of any kind (monotonic clock); undefined when nothing answered. */
  latencyMs?: number;
  /** The first request that got no answer at all (a refused address, a timeout, DNS), if any did. */
  fetchFailure?: FetchError;
  /** Every such failure while connecting, in order. */
  fetchFailures: FetchError[];
  /** Some request so far, calls after connecting included, was answered 401: the agent asks for a credential. */
  readonly authRequired: boolean;
  /** Why each protocol that is not connected failed. */
  problems: Partial<Record<AgentProtocol, string>>;
  close(): Promise<void>;
}

/**
 * Connects to the agent at `agentUrl` over both protocols at once: MCP at the URL itself
 * (`initialize`) and A2A through its agent card (agentCardUrls), timing the first answer.
 * Never throws for the agent's sake: what failed is in `problems` and `fetchFailure`.
 */
export async function discoverAgent(agentUrl: string, options: DiscoverOptions): Promise<AgentDiscovery> {
  const started = performance.now();
  let firstAnswerMs: number | undefined;
  const fetchFailures: FetchError[] = [];
  let authRequired = false;
  const statuses = new Map<string, number>();
  const fetch = fetchThrough(options.fetcher, {
    onResponse: ({ url }, status) => {
      if (status === undefined) return;
      firstAnswerMs ??= performance.now() - started;
      if (status === 401) authRequired = true;
      statuses.set(url, status);
    },
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const connectOptions = {
    fetch,
    clientName: options.clientName ?? 'ap-client',
    ...(options.authorization ? { authorization: options.authorization } : {}),
  };
  const problems: AgentDiscovery['problems'] = {};
  const attempt = async (protocol: AgentProtocol, connect: () => Promise<AgentConnection>) => {
    try {
      return await connect();
    } catch (err) {
      const failure = findFetchError(err);
      if (failure) fetchFailures.push(failure);
      problems[protocol] = describeError(err);
      return undefined;
    }
  };
  const a2aCard = async () => {
    const [card, legacy] = agentCardUrls(agentUrl);
    try {
      return await connectA2a(card!, connectOptions);
    } catch (err) {
      // A card missing at the current name may be served at the 0.3 one.
      if (legacy === undefined || statuses.get(card!) !== 404) throw err;
      return await connectA2a(legacy, connectOptions);
    }
  };
  const [mcp, a2a] = await Promise.all([
    attempt('mcp', () => connectMcp(agentUrl, connectOptions)),
    attempt('a2a', a2aCard),
  ]);
  const connections = [mcp, a2a].filter((c): c is AgentConnection => c !== undefined);
  return {
    connections,
    ...(mcp ? { mcp } : {}),
    ...(a2a ? { a2a } : {}),
    ...(firstAnswerMs !== undefined ? { latencyMs: Math.round(firstAnswerMs) } : {}),
    ...(fetchFailures[0] ? { fetchFailure: fetchFailures[0] } : {}),
    fetchFailures,
    get authRequired() {
      return authRequired;
    },
    problems,
    close: async () => void (await Promise.all(connections.map((c) => c.close().catch(() => {})))),
  };
}

/**
 * Where an agent's A2A card may be: beside its endpoint (`/sales/mcp` → `/sales/.well-known/agent-card.json`),
 * then the A2A 0.3 name (`agent.json`); a URL that is itself a card is the only place.
 */
export function agentCardUrls(agentUrl: string): string[] {
  const url = new URL(agentUrl);
  if (/\/\.well-known\/(agent-card|agent)\.json$/.test(url.pathname)) return [`${url.origin}${url.pathname}`];
  const path = url.pathname.replace(/\/+$/, '').replace(/\/(mcp|a2a)$/, '');
  return [`${url.origin}${path}/.well-known/agent-card.json`, `${url.origin}${path}/.well-known/agent.json`];
}

/** The FetchError under whatever the SDKs wrapped it in. */
export function findFetchError(err: unknown): FetchError | undefined {
  for (let cause = err, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof FetchError) return cause;
  }
  return undefined;
}

export function describeError(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 300);
}
