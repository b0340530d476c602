import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { databaseUnreachable, unreachableRetryAfterSeconds } from '../db/unavailable.ts';
import { ApError, codeForStatus, errorBody, type FieldIssue } from '../protocol/errors.ts';
import { dottedField, pointerTokens } from '../protocol/json-path.ts';
import { faultPointer } from '../protocol/schema-issues.ts';

/**
 * The one place errors become responses. Our own `ApError`s render as they are; errors raised by
 * the framework are translated to catalogue codes; anything else is a 500 whose details go to the
 * log, never to the client.
 */
export function registerErrorRendering(
  app: FastifyInstance,
  notFound: (request: FastifyRequest) => ApError = (request) =>
    new ApError('route_not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`),
): void {
  app.setErrorHandler((raw: FastifyError | ApError | Error, request, reply) => {
    const err = toApError(raw);
    // A database outage fails every request at once: one warning per request, not an error each.
    if (err.status === 503) request.log.warn({ code: err.code, cause: (raw as Error).message }, 'request refused');
    else if (err.status >= 500) request.log.error({ err: raw }, 'request failed');
    else request.log.info({ code: err.code }, 'request rejected');
    return send(reply, err);
  });
  app.setNotFoundHandler((request, reply) => send(reply, notFound(request)));
}

/** The longest path parameter, as sent (percent-encoded): an agent URL of 2,048 characters encoded. */
export const maxPathParamLength = 6144;

/**
 * What Fastify answers itself unless told otherwise, before any route or error handler: a URL it
 * cannot decode or a path parameter over its length limit (the router's `frameworkErrors`), and a
 * request the HTTP parser refuses, such as headers over the size limit (`clientErrorHandler`, on
 * the socket: there is no request). Spread into the server's options, so these answer in the
 * catalogue's shape too.
 */
export const frameworkRefusals = {
  // Agent URLs ride in paths (`/api/registry/agents/{url}/compliance`): one of 2,048 characters,
  // percent-encoded, fits. The router's own default (100) refused ordinary long agent URLs.
  routerOptions: { maxParamLength: maxPathParamLength },
  frameworkErrors: (err: FastifyError, _request: FastifyRequest, reply: FastifyReply) => send(reply, toApError(err)),
  clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Duplex) {
    // A connection reset or already closed has no one to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    this.log.debug({ err }, 'client error');
    const refusal =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? new ApError('headers_too_large')
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new ApError('request_timeout')
          : new ApError('invalid_request', 'The request is not well-formed HTTP.');
    const body = JSON.stringify(errorBody(refusal));
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  },
};

export function send(reply: FastifyReply, err: ApError): FastifyReply {
  if (err.retryAfter !== undefined) reply.header('retry-after', String(err.retryAfter));
  // Errors are rendered here, not by the route's response serializer, so no route schema can drop fields.
  return reply.code(err.status).type('application/json; charset=utf-8').serializer(JSON.stringify).send(errorBody(err));
}

const frameworkCodes: Record<string, (err: FastifyError) => ApError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => new ApError('invalid_json'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new ApError('invalid_json', 'The request body is empty; send a JSON document.'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ApError('payload_too_large'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new ApError('unsupported_media_type'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new ApError('invalid_request', 'Content-Length does not match the body.'),
  FST_ERR_BAD_URL: () => new ApError('invalid_request', 'The request URL is malformed.'),
  FST_ERR_MAX_PARAM_LENGTH: () => new ApError('invalid_request', 'A path segment of the request URL is too long.'),
};

/** Any error as the catalogue's: an ApError as it is, a framework error as its code, anything else internal_error. */
export function toApError(err: FastifyError | ApError | Error): ApError {
  if (err instanceof ApError) return err;
  if (databaseUnreachable(err))
    return new ApError('service_unavailable', 'The database cannot be reached right now; retry shortly.', {
      retryAfter: unreachableRetryAfterSeconds,
      cause: err,
    });
  const fe = err as FastifyError;
  if (fe.validation) return new ApError('validation_failed', validationMessage(fe), { details: fieldIssues(fe) });
  const known = fe.code ? frameworkCodes[fe.code] : undefined;
  if (known) return known(fe);
  // JSON parse errors (including prototype-poisoning attempts) surface as SyntaxError with status 400.
  if (err instanceof SyntaxError && fe.statusCode === 400) return new ApError('invalid_json');
  const status = fe.statusCode ?? 500;
  if (status >= 400 && status < 500) return new ApError(codeForStatus(status), undefined, { cause: err });
  return new ApError('internal_error', undefined, { cause: err });
}

type AjvIssue = NonNullable<FastifyError['validation']>[number];

function fieldIssues(err: FastifyError): FieldIssue[] {
  const part = err.validationContext ?? 'body';
  return (err.validation ?? []).map((issue: AjvIssue) => ({
    in: part,
    field: fieldOf(issue),
    message: issue.message ?? 'is invalid',
  }));
}

function fieldOf(issue: AjvIssue): string {
  return dottedField(pointerTokens(faultPointer(issue)));
}

function validationMessage(err: FastifyError): string {
  const issues = fieldIssues(err);
  const first = issues[0];
  if (!first) return 'The request does not match the schema.';
  const where = first.field ? `${first.in}.${first.field}` : first.in;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `Invalid ${where}: ${first.message}${more}.`;
}
