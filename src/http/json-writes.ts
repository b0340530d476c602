import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { ApError } from '../protocol/errors.ts';
import { brokenJsonBound, MAX_JSON_DEPTH, MAX_JSON_MEMBERS, requestBounds } from '../protocol/json-depth.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH']);
const JSON_TYPE = /^application\/json\s*(;|$)/i;

const requireJson: onRequestHookHandler = (request, _reply, done) => {
  done(JSON_TYPE.test(request.headers['content-type'] ?? '') ? undefined : new ApError('unsupported_media_type'));
};

/**
 * JSON writes must say they are JSON. Checked before the body is read, so a wrong or missing
 * Content-Type costs nothing and changes nothing. The check is attached only to write routes that
 * take a body, so reads pay nothing for it. Only JSON has a parser at all: the framework's default
 * text parser is removed so no route accepts a body it would misread.
 */
export function requireJsonWrites(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!route.schema?.body || !methods.some((m) => WRITES.has(m))) return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [requireJson, ...existing];
  });
}

const beyond = {
  depth: `The JSON body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
  members: `The JSON body has an object of more than ${MAX_JSON_MEMBERS} members.`,
};

/**
 * JSON bodies are parsed as the framework does (prototype poisoning refused) and refused when
 * nested deeper than MAX_JSON_DEPTH (code that walks a document recursively, deep equality or
 * serialization, would otherwise run out of stack on a small hostile body and answer 500) or
 * holding an object wider than MAX_JSON_MEMBERS (copying one costs the square of its width).
 */
export function boundJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parse(request, body as string, (err, value) => {
      if (err) return done(err);
      const broken = brokenJsonBound(value, requestBounds);
      if (broken) return done(new ApError('invalid_json', beyond[broken]));
      done(null, value);
    });
  });
}
