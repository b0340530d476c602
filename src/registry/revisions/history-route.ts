import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../db/database.ts';
import { normalizeDomain } from '../../protocol/domain.ts';
import { ApError } from '../../protocol/errors.ts';
import { errorResponses } from '../../protocol/wire/error.ts';
import { History, HistoryQuery, Revision } from './schemas.ts';
import { revisionsOf, type RevisionTables } from './sql.ts';
import { revisionToWire } from './wire.ts';

/** `GET /api/{brands,properties}/history`: public, newest first, paged by limit and offset. */
export function historyRoute(app: FastifyInstance, db: Database, options: { path: string; tag: string; tables: RevisionTables; noun: string }): void {
  // Brands and properties share the revision record; whichever registers first adds it.
  if (!app.getSchema('Revision')) app.addSchema(Revision);
  app.get<{ Querystring: Static<typeof HistoryQuery> }>(
    options.path,
    {
      schema: {
        summary: `Revision history of a ${options.noun}`,
        tags: [options.tag],
        querystring: HistoryQuery,
        response: { 200: History, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const domain = normalizeDomain(request.query.domain);
      const page = await revisionsOf(db, options.tables, domain, request.query.limit ?? 20, request.query.offset ?? 0);
      if (!page) throw new ApError('not_found', `No ${options.noun} is registered for ${domain}.`);
      return { domain, total: page.total, revisions: page.revisions.map(revisionToWire) };
    },
  );
}
