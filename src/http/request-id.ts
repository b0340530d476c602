import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

// A caller's own id is kept when it is a plausible token, so logs can be joined across services;
// anything else (too long, control characters) is replaced rather than written into our logs.
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTABLE.test(given) ? given : randomUUID();
}

/** Echoes the request id so a client can quote it when reporting a problem. */
export function echoRequestId(app: FastifyInstance): void {
  // A callback hook: it awaits nothing, so it costs no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}
