import type { FastifyInstance } from 'fastify';

/** One structured log line per request, written when the response has been sent. */
export function logRequests(app: FastifyInstance): void {
  // A callback hook: it awaits nothing, so it costs no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    request.log[request.routeOptions.config.requestLog ?? 'info'](
      {
        method: request.method,
        route: request.routeOptions.url,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    );
    done();
  });
}
