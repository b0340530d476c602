/**
 * What a route declares about itself besides its schema. `auth` says who may call it: `none`
 * (public), `optional` (public, but a credential changes the answer) or `required`. Public GET
 * routes answer cross-origin requests; the identity layer enforces `required`.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: 'none' | 'optional' | 'required';
  }
}

export type RouteAuth = 'none' | 'optional' | 'required';
