import type { FastifyInstance, FastifyReply, onRequestHookHandler } from 'fastify';
import { ApError } from '../protocol/errors.ts';
import type { AgentResources } from './agent-resources.ts';
import type { Authenticator } from './authenticator.ts';
import type { Principal } from './principal.ts';
import type { RegistryResource } from '../http/route-config.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Enforces each route's `config.auth` and `config.access`. `required` routes answer 401 with a
 * `WWW-Authenticate` challenge that points to the protected-resource metadata (RFC 9728), so an
 * OAuth client can find the authorization server; `optional` routes take a credential when given.
 * A valid credential without the standing `access` asks for answers 403. Attached per route, so
 * public routes pay nothing.
 *
 * An agent's routes (declared in `agents` before they are added) are resources of
 * their own: their challenge names the agent's metadata, an access token must be meant for that
 * agent (its audience), and the agent's configured tokens are accepted there too. The registry's
 * own routes take tokens for its REST API or its MCP endpoint alike; the challenge names the
 * resource the route belongs to (`config.protectedResource`).
 */
export function guardRoutes(
  app: FastifyInstance,
  authenticator: Authenticator,
  resourceMetadataUrl: (resource: RegistryResource) => string | undefined,
  agents: AgentResources,
): void {
  const challenge = (reply: FastifyReply, metadata: string | undefined, error?: string) => {
    const params = ['realm="ap"', error && `error="${error}"`, metadata && `resource_metadata="${metadata}"`].filter(
      Boolean,
    );
    reply.header('www-authenticate', `Bearer ${params.join(', ')}`);
  };
  const check = (
    required: boolean,
    access: Access | undefined,
    target: AgentRoute | undefined,
    resource: RegistryResource,
  ): onRequestHookHandler =>
    async function authenticate(request, reply) {
      const metadata = () =>
        target ? agents.metadataUrl(target.agent, target.endpoint) : resourceMetadataUrl(resource);
      const header = request.headers.authorization;
      if (!header) {
        if (!required) return;
        challenge(reply, metadata());
        throw new ApError(
          'unauthorized',
          'This endpoint needs a credential: Authorization: Bearer <API key or access token>.',
        );
      }
      const match = BEARER.exec(header);
      const organization = request.headers['ap-organization'];
      const options = {
        organization: typeof organization === 'string' ? organization : undefined,
        ...(target ? { audiences: agents.audiences(target.agent) } : {}),
      };
      const credential = match?.[1];
      const principal = credential
        ? ((target && (await target.agent.credentials.match(credential))) ??
          (await authenticator.authenticate(credential, options)))
        : null;
      if (!principal) {
        challenge(reply, metadata(), 'invalid_token');
        throw new ApError(
          'unauthorized',
          'The credential is not valid: unknown, revoked, expired, or meant for another resource.',
        );
      }
      request.principal = principal;
      if (access) refuseWithout(access, principal);
    };
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (auth !== 'required' && auth !== 'optional') return;
    const target = agents.routeOf(route.url);
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [
      ...existing,
      check(auth === 'required', route.config?.access, target, route.config?.protectedResource ?? 'api'),
    ];
  });
}

type AgentRoute = NonNullable<ReturnType<AgentResources['routeOf']>>;

/** The standing a route asks of its caller, beyond a valid credential. */
export type Access = NonNullable<import('fastify').FastifyContextConfig['access']>;

function refuseWithout(access: Access, principal: Principal): void {
  const org = principal.organization;
  if (!org)
    throw new ApError(
      'forbidden',
      'This endpoint acts for an organization, and the credential belongs to none. Ask an organization admin to add you.',
    );
  if (access === 'registry-admin' && !org.registryAdmin) {
    throw new ApError('forbidden', 'This endpoint is for the registry operator’s administrators.');
  }
}
