import { SafeFetch } from '../../net/safe-fetch.ts';
import {
  agentCardUrls,
  connectA2a,
  connectMcp,
  fetchThrough,
  type AgentConnection,
  type AgentProtocol,
} from '../agents/index.ts';
import { ApAgentError, asAgentError, fetchReason } from './agent-error.ts';
import { envelopeFetch } from './envelope-fetch.ts';

/** An agent to call, and how to reach it. */
export interface AgentTarget {
  /** Its MCP endpoint (`https://agent.example/mcp`), its A2A card or the base its card is under. */
  agentUrl: string;
  /** Sent as `Authorization: Bearer <credential>`. */
  credential?: string;
  /** Detected when not given: see openAgent. */
  protocol?: AgentProtocol;
  /**
   * Every request goes through it. By default the SSRF-safe client with its public-only policy
   * (an agent on a private address is refused); pass `globalThis.fetch` to call one on your own
   * network, or `fetchThrough(new SafeFetch({ allow }))` to allow some.
   */
  fetch?: typeof fetch;
  /** Ends every request of this agent at once: connecting, calling, polling (a timeout or the caller's cancel). */
  signal?: AbortSignal;
}

let publicOnly: typeof fetch | undefined;

// Generous bounds: some tasks answer in minutes (build_creative), and a product list can be large.
function defaultFetch(): typeof fetch {
  publicOnly ??= fetchThrough(new SafeFetch({ timeoutMs: 10 * 60_000, maxBytes: 32 * 1024 * 1024 }));
  return publicOnly;
}

/**
 * Connects to the agent over the protocol asked for, or detects it: a URL ending in `/mcp` is tried
 * over MCP first and an A2A card after, any other URL the other way round. The first that answers
 * is kept; when neither does, the error says what each attempt met.
 */
export async function openAgent(target: AgentTarget): Promise<AgentConnection> {
  if (!URL.canParse(target.agentUrl) || !/^https?:$/.test(new URL(target.agentUrl).protocol)) {
    throw new ApAgentError('input', 'INVALID_AGENT_URL', `${JSON.stringify(target.agentUrl)} is not an http(s) URL`);
  }
  const options = {
    fetch: envelopeFetch(withSignal(target.fetch ?? defaultFetch(), target.signal)),
    clientName: 'ap-client',
    ...(target.credential ? { authorization: `Bearer ${target.credential}` } : {}),
  };
  const mcp = () => connectMcp(target.agentUrl, options);
  // The card where A2A 1.x serves it, else where 0.3 did.
  const a2a = async () => {
    const [card, legacy] = agentCardUrls(target.agentUrl);
    try {
      return await connectA2a(card!, options);
    } catch (err) {
      if (!legacy) throw err;
      return connectA2a(legacy, options).catch(() => Promise.reject(err));
    }
  };
  if (target.protocol === 'mcp') return mcp().catch((err: unknown) => Promise.reject(asAgentError(err)));
  if (target.protocol === 'a2a') return a2a().catch((err: unknown) => Promise.reject(asAgentError(err)));
  const order = /\/mcp\/?$/.test(new URL(target.agentUrl).pathname) ? [mcp, a2a] : [a2a, mcp];
  const failures: ApAgentError[] = [];
  for (const attempt of order) {
    try {
      return await attempt();
    } catch (err) {
      const error = asAgentError(err);
      // A refused credential or address is the answer; trying the other protocol would hide it.
      if (error.code === 'UNAUTHORIZED' || error.code === 'PERMISSION_DENIED' || error.code === 'RATE_LIMITED')
        throw error;
      if (fetchReason(error) === 'forbidden_address')
        throw new ApAgentError('transport', 'TRANSPORT_ERROR', error.message, {
          cause: error,
          suggestion: `To call an agent on a private or loopback address, allow it: ap's --allow ${new URL(target.agentUrl).host} (or AP_FETCH_ALLOW), or a fetch that reaches it.`,
        });
      failures.push(error);
    }
  }
  const [first, second] = failures;
  throw new ApAgentError(
    'transport',
    'NOT_AN_AGENT',
    `No MCP endpoint or A2A card answered at ${target.agentUrl}: ${first?.message}; ${second?.message}`,
    {
      ...(first?.retryable || second?.retryable ? { retryable: true } : {}),
      cause: first,
    },
  );
}

// The SDKs take no signal for connecting; every request they make goes through this fetch.
function withSignal(inner: typeof fetch, signal: AbortSignal | undefined): typeof fetch {
  if (!signal) return inner;
  return (input, init) =>
    inner(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
}
