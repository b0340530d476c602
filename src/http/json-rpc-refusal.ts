import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ApError } from '../protocol/errors.ts';
import { toApError } from './errors.ts';

// JSON-RPC 2.0's own codes (section 5.1) for a request the transport could not take.
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;

/**
 * Refusals that stay the registry's on a JSON-RPC endpoint too: who may call (401, whose challenge
 * leads MCP clients to OAuth; 403), how often (429 with Retry-After), and a server going away (503).
 */
const registryRefusals: ReadonlySet<number> = new Set([401, 403, 429, 503]);

/**
 * The error handler of the JSON-RPC endpoints (MCP's and A2A's): what is refused before the
 * protocol reads the request (a body that is not JSON or nests too deeply, a body
 * too large or of another media type) answers as a JSON-RPC error with `id: null`, with the
 * catalogue's status and message: -32700 for a body that cannot be parsed, -32600 for the rest, and
 * -32603 (its detail in the log) for a failure of ours. Credential, access, rate and shutdown
 * refusals are rethrown to the registry's renderer.
 */
export function jsonRpcRefusal(
  err: FastifyError | ApError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const refusal = toApError(err);
  if (registryRefusals.has(refusal.status)) throw err;
  if (refusal.status >= 500) request.log.error({ err }, 'JSON-RPC request failed');
  const [code, message] =
    refusal.status >= 500
      ? [INTERNAL_ERROR, 'Internal error.']
      : [refusal.code === 'invalid_json' ? PARSE_ERROR : INVALID_REQUEST, refusal.message];
  return reply
    .code(refusal.status)
    .type('application/json')
    .send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}
