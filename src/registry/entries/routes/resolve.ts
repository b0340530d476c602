import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import type { EntityKind, EntryRow, Resolver } from '../kind.ts';
import { DomainQuery } from '../schemas.ts';

export function resolveRoute<Row extends EntryRow, Fields, Body>(
  app: FastifyInstance,
  kind: EntityKind<Row, Fields, Body>,
  resolve: Resolver,
): void {
  const { wire } = kind;
  app.get<{ Querystring: Static<typeof DomainQuery> }>(
    `${wire.path}/resolve`,
    {
      schema: {
        ...wire.docs.resolve,
        tags: [wire.tag],
        querystring: DomainQuery,
        response: { 200: wire.schemas.ResolveResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const domain = normalizeDomain(request.query.domain);
      const resolution = (await resolve([domain])).get(domain);
      if (resolution === undefined) throw new ApError('not_found', `No ${kind.noun} is registered for ${domain}.`);
      return resolution;
    },
  );
}
