import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../../db/database.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { checkCursor, pageRequestOf, readPage, renderPage, type FeedSettings } from '../pages.ts';
import { FeedPage, FeedQuery } from '../schemas.ts';

export function feedRoute(app: FastifyInstance, db: Database, settings: FeedSettings): void {
  app.get<{ Querystring: Static<typeof FeedQuery> }>(
    '/api/registry/feed',
    {
      config: { auth: 'required' },
      schema: {
        summary: 'Read the change feed',
        description:
          'Registry change events after `cursor`, in event id order. Ids are assigned in commit order, so a reader paging ' +
          'by cursor never skips an event. When `has_more` is true ask again at once with the returned cursor; when false, ' +
          'poll later with it. 410 `cursor_expired` means the cursor is older than the retention window or unknown: ' +
          're-bootstrap from GET /api/registry/snapshot and resume with the cursor it returns.',
        tags: ['Change Feed'],
        querystring: FeedQuery,
        response: { 200: FeedPage, ...errorResponses(400, 401, 410) },
      },
    },
    async (request, reply) => {
      const asked = pageRequestOf(request.query);
      await checkCursor(db, settings, asked.cursor);
      const page = await readPage(db, settings, asked);
      // Sent as text: the events' JSON was built by the database (see pages.ts).
      return reply.type('application/json; charset=utf-8').send(renderPage(page));
    },
  );
}
