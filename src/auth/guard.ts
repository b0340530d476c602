import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { ApError } from '../protocol/errors.ts';
import type { Authenticator } from './authenticator.ts';
import './principal.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Enforces each route's `config.auth`: `required` routes answer 401 (with `WWW-Authenticate`)
 * without a valid bearer credential; `optional` routes take one when given. Attached per route, so
 * public routes pay nothing.
 */
export function guardRoutes(app: FastifyInstance, authenticator: Authenticator): void {
  const check = (required: boolean): onRequestHookHandler =>
    async function authenticate(request, reply) {
      const header = request.headers.authorization;
      if (!header) {
        if (!required) return;
        reply.header('www-authenticate', 'Bearer realm="ap"');
        throw new ApError('unauthorized', 'This endpoint needs a credential: Authorization: Bearer <API key or access token>.');
      }
      const match = BEARER.exec(header);
      const principal = match ? await authenticator.authenticate(match[1]!) : null;
      if (!principal) {
        reply.header('www-authenticate', 'Bearer realm="ap", error="invalid_token"');
        throw new ApError('unauthorized', 'The credential is not valid.');
      }
      request.principal = principal;
    };
  const required = check(true);
  const optional = check(false);
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (auth !== 'required' && auth !== 'optional') return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [...existing, auth === 'required' ? required : optional];
  });
}
