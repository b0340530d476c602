import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../../db/database.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import type { FeedHub } from '../hub.ts';
import { checkCursor, pageRequestOf, type FeedSettings } from '../pages.ts';
import { StreamQuery } from '../schemas.ts';
import { FeedStream } from '../stream.ts';

export function streamRoute(app: FastifyInstance, db: Database, settings: FeedSettings, hub: FeedHub): void {
  app.get<{ Querystring: Static<typeof StreamQuery> }>(
    '/api/registry/feed/stream',
    {
      config: { auth: 'required' },
      schema: {
        summary: 'Stream the change feed (Server-Sent Events)',
        description:
          'The feed pages as Server-Sent Events: `event: feed` with the same JSON as GET /api/registry/feed, first the ' +
          'backlog after `cursor`, then new events as they commit; `event: heartbeat` with `{cursor, freshness}` when ' +
          'caught up and periodically after. The resume cursor is `data.cursor` (messages carry no SSE id): reconnect ' +
          'with `?cursor=<data.cursor>` and the same `types`. Errors before the stream starts answer as JSON, 410 ' +
          'included.',
        tags: ['Change Feed'],
        querystring: StreamQuery,
        response: {
          200: { description: 'An event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          ...errorResponses(400, 401, 410, 503),
        },
      },
    },
    async (request, reply) => {
      const asked = pageRequestOf(request.query);
      hub.assertListening();
      await checkCursor(db, settings, asked.cursor);
      reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // Proxies such as nginx would otherwise buffer the stream.
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      new FeedStream(reply.raw, {
        hub,
        db,
        settings,
        request: asked,
        log: request.log,
      }).start();
    },
  );
}
