import type { FastifyInstance, FastifyReply, onRequestHookHandler } from 'fastify';
import { ApError } from '../protocol/errors.ts';
import type { Authenticator } from './authenticator.ts';
import type { Principal } from './principal.ts';
import '../http/route-config.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Enforces each route's `config.auth` and `config.access`. `required` routes answer 401 with a
 * `WWW-Authenticate` challenge that points to the protected-resource metadata (RFC 9728), so an
 * OAuth client can find the authorization server; `optional` routes take a credential when given.
 * A valid credential without the standing `access` asks for answers 403. Attached per route, so
 * public routes pay nothing.
 */
export function guardRoutes(app: FastifyInstance, authenticator: Authenticator, resourceMetadataUrl: () => string | undefined): void {
  const challenge = (reply: FastifyReply, error?: string) => {
    const metadata = resourceMetadataUrl();
    const params = ['realm="ap"', error && `error="${error}"`, metadata && `resource_metadata="${metadata}"`].filter(Boolean);
    reply.header('www-authenticate', `Bearer ${params.join(', ')}`);
  };
  const check = (required: boolean, access: Access | undefined): onRequestHookHandler =>
    async function authenticate(request, reply) {
      const header = request.headers.authorization;
      if (!header) {
        if (!required) return;
        challenge(reply);
        throw new ApError('unauthorized', 'This endpoint needs a credential: Authorization: Bearer <API key or access token>.');
      }
      const match = BEARER.exec(header);
      const organization = request.headers['ap-organization'];
      const principal = match ? await authenticator.authenticate(match[1]!, { organization: typeof organization === 'string' ? organization : undefined }) : null;
      if (!principal) {
        challenge(reply, 'invalid_token');
        throw new ApError('unauthorized', 'The credential is not valid: unknown, revoked or expired.');
      }
      request.principal = principal;
      if (access) refuseWithout(access, principal);
    };
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (auth !== 'required' && auth !== 'optional') return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [...existing, check(auth === 'required', route.config?.access)];
  });
}

/** The standing a route asks of its caller, beyond a valid credential. */
export type Access = NonNullable<import('fastify').FastifyContextConfig['access']>;

function refuseWithout(access: Access, principal: Principal): void {
  const org = principal.organization;
  if (!org) throw new ApError('forbidden', 'This endpoint acts for an organization, and the credential belongs to none. Ask an organization admin to add you.');
  if (access === 'registry-admin' && !org.registryAdmin) {
    throw new ApError('forbidden', 'This endpoint is for the registry operator’s administrators.');
  }
}
