import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { domainParam } from './page-schemas.ts';

/** Makes the page about `domain`; `request` is the visitor's, for reading the API as them. */
export type DomainPage = (request: FastifyRequest, reply: FastifyReply, domain: string) => Promise<FastifyReply>;

/**
 * A page about one domain (a brand, a publisher, an operator) at `path`, which ends in `/:domain`:
 * the domain is bounded as the API bounds it, and the page is kept out of the API's reference.
 */
export function domainPageRoute(app: FastifyInstance, path: `${string}/:domain`, render: DomainPage): void {
  app.get<{ Params: { domain: string } }>(path, { schema: { hide: true, params: domainParam } }, (request, reply) =>
    render(request, reply, request.params.domain),
  );
}
