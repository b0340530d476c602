import type { FastifyInstance } from 'fastify';
import { ApError } from '../protocol/errors.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH']);
const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * JSON writes must say they are JSON. Checked before the body is read, so a wrong or missing
 * Content-Type costs nothing and changes nothing. Only JSON has a parser at all: the framework's
 * default text parser is removed so no route accepts a body it would misread.
 */
export function requireJsonWrites(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', async (request) => {
    if (!WRITES.has(request.method) || !request.routeOptions.schema?.body) return;
    if (!JSON_TYPE.test(request.headers['content-type'] ?? '')) throw new ApError('unsupported_media_type');
  });
}
