import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../../db/database.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { SnapshotPage, SnapshotQuery } from '../schemas.ts';
import { readSnapshot, type SnapshotSection } from '../snapshot.ts';

export function snapshotRoute(app: FastifyInstance, db: Database, sections: readonly SnapshotSection[]): void {
  app.get<{ Querystring: Static<typeof SnapshotQuery> }>(
    '/api/registry/snapshot',
    {
      config: { auth: 'required' },
      schema: {
        summary: 'Page through the registry state to bootstrap a mirror',
        description:
          'Every entity the feed describes, as it is now, with the feed `cursor` to tail from. Load every page (follow ' +
          '`next_page_token` until `has_more` is false), then read GET /api/registry/feed from `cursor` and apply each ' +
          'event: the mirror converges on the registry without missing a change. This is the way back after a 410.',
        tags: ['Change Feed'],
        security: [{ bearer: [] }],
        querystring: SnapshotQuery,
        response: { 200: SnapshotPage, ...errorResponses(400, 401) },
      },
    },
    async (request) => readSnapshot(db, sections, request.query.page_token, request.query.limit ?? 500),
  );
}
