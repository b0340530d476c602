/**
 * What a route declares about itself besides its schema. `auth` says who may call it: `none`
 * (public), `optional` (public, but a credential changes the answer) or `required`; `access` the
 * standing a credential must carry (acting for an organization, or being a registry admin),
 * else 403. Public GET routes answer cross-origin requests; auth/guard.ts enforces both.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: 'none' | 'optional' | 'required';
    access?: 'organization' | 'registry-admin';
    /**
     * Which of the registry's protected resources (RFC 9728) the route belongs to, named by its
     * 401 challenge: the REST API (default) or the MCP endpoint. Tokens for either are accepted
     * on both (one token works for the REST API and `/mcp`).
     */
    protectedResource?: RegistryResource;
    /**
     * The level of the route's one log line per request (http/request-log.ts): `debug` for the
     * lookups an ad server makes once per impression, where a line per request would cost more
     * than the answer (/metrics still counts every one). Default `info`.
     */
    requestLog?: 'info' | 'debug';
    /**
     * The route's protocol checks the text of its body itself and refuses in its own envelope
     * (the agents' task runner, the registry's MCP tools): the app's hook refusing NUL and lone
     * surrogates (http/validation.ts) leaves its body alone, so a buyer's tool gets a protocol
     * error naming the argument, not the REST API's 400.
     */
    checksOwnText?: true;
  }
}

export type RouteAuth = 'none' | 'optional' | 'required';

/** The registry's own protected resources: `<base>/api` and `<base>/mcp`. */
export type RegistryResource = 'api' | 'mcp';
