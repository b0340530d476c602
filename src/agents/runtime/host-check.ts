import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';

/**
 * DNS-rebinding protection for the agent endpoints (as the MCP transport specification asks): the
 * Host must name this server, and a browser's Origin, when sent, must be one the operator allowed.
 * Agents are called server to server, which sends no Origin.
 */
export function hostCheck(allowedHosts: readonly string[], allowedOrigins: readonly string[]): onRequestAsyncHookHandler {
  const hosts = new Set(['localhost', '127.0.0.1', '[::1]', ...allowedHosts].map((h) => h.toLowerCase()));
  const origins = new Set(allowedOrigins.map((o) => o.toLowerCase()));
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const host = hostnameOf(request.headers.host);
    const origin = request.headers.origin?.toLowerCase();
    const problem = !host || !hosts.has(host) ? `Host "${request.headers.host ?? ''}" is not served here` : origin && !origins.has(origin) ? `Origin "${origin}" is not allowed` : undefined;
    if (!problem) return;
    await reply.code(403).type('application/json').send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: `Forbidden: ${problem}.` } });
  };
}

function hostnameOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
