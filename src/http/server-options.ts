import { LogController, type FastifyServerOptions } from 'fastify';
import { frameworkRefusals } from './errors.ts';
import { standardOutputLog } from './log-destination.ts';
import { requestId } from './request-id.ts';
import { buildSerializer } from './serialization.ts';
import { buildValidator } from './validation.ts';

/**
 * The server options every HTTP application of this project is built with (the registry with its
 * agents, and a mirror): one JSON log line per request with credentials redacted, our request ids,
 * refusals in the catalogue's shape, and our validator and serializer.
 */
export function serverOptions(settings: {
  logLevel: string;
  bodyLimitBytes: number;
  trustProxy: boolean | string;
}): FastifyServerOptions {
  return {
    logger: {
      level: settings.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      stream: standardOutputLog(),
    },
    // One line per request, written by request-log.ts, instead of the framework's two.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestId,
    bodyLimit: settings.bodyLimitBytes,
    trustProxy: settings.trustProxy,
    // We answer 503 in the catalogue's shape ourselves while closing (see the shutdown gate).
    return503OnClosing: false,
    // A URL the router cannot read, and a request the HTTP parser refuses, answer in the catalogue's shape too.
    ...frameworkRefusals,
    // The factory's published type is Ajv-compiler's own; ours has the same call shape.
    schemaController: { compilersFactory: { buildValidator: buildValidator as never, buildSerializer } },
  };
}
