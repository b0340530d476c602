import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Config } from '../../config.ts';

/**
 * DNS-rebinding protection for the MCP (and A2A) endpoints (as the MCP transport specification asks): the
 * Host must name this server, and a browser's Origin, when sent, must be one the operator allowed.
 * They are called server to server, which sends no Origin.
 */
export function hostCheck(
  allowedHosts: readonly string[],
  allowedOrigins: readonly string[],
): onRequestAsyncHookHandler {
  const hosts = new Set(['localhost', '127.0.0.1', '[::1]', ...allowedHosts].map((h) => h.toLowerCase()));
  const origins = new Set(allowedOrigins.map((o) => o.toLowerCase()));
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const host = hostnameOf(request.headers.host);
    const origin = request.headers.origin?.toLowerCase();
    const problem =
      !host || !hosts.has(host)
        ? `Host "${request.headers.host ?? ''}" is not served here`
        : origin && !origins.has(origin)
          ? `Origin "${origin}" is not allowed`
          : undefined;
    if (!problem) return;
    await reply
      .code(403)
      .type('application/json')
      .send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: `Forbidden: ${problem}.` } });
  };
}

// Every call of a connection sends the same Host, so the last one parsed is kept: parsing a URL per call cost more than the check.
let lastHost: { header: string; hostname: string | undefined } | undefined;

function hostnameOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  if (lastHost?.header === host) return lastHost.hostname;
  let hostname: string | undefined;
  try {
    hostname = new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    hostname = undefined;
  }
  lastHost = { header: host, hostname };
  return hostname;
}

/**
 * The deployment's one policy for its MCP and A2A endpoints (the agents' and the registry's own):
 * PUBLIC_URL's host and AGENT_ALLOWED_HOSTS, browsers from AGENT_ALLOWED_ORIGINS.
 */
export function deploymentHostCheck(config: Pick<Config, 'publicUrl' | 'agents'>): onRequestAsyncHookHandler {
  const publicHost = config.publicUrl ? new URL(config.publicUrl).hostname : undefined;
  return hostCheck([...(publicHost ? [publicHost] : []), ...config.agents.allowedHosts], config.agents.allowedOrigins);
}
