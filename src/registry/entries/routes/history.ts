import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../../db/database.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import type { EntityKind, EntryRow } from '../kind.ts';
import { revisionToWire } from '../revisions.ts';
import { History, HistoryQuery } from '../schemas.ts';
import { revisionsOf } from '../sql.ts';

/** `GET {path}/history`: public, newest first, paged by limit and offset. */
export function historyRoute<Row extends EntryRow, Fields, Body>(
  app: FastifyInstance,
  db: Database,
  kind: EntityKind<Row, Fields, Body>,
): void {
  app.get<{ Querystring: Static<typeof HistoryQuery> }>(
    `${kind.wire.path}/history`,
    {
      schema: {
        summary: `Revision history of a ${kind.noun}`,
        tags: [kind.wire.tag],
        querystring: HistoryQuery,
        response: { 200: History, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const domain = normalizeDomain(request.query.domain);
      const page = await revisionsOf(db, kind.tables, domain, request.query.limit ?? 20, request.query.offset ?? 0);
      if (!page) throw new ApError('not_found', `No ${kind.noun} is registered for ${domain}.`);
      return { domain, total: page.total, revisions: page.revisions.map(revisionToWire) };
    },
  );
}
