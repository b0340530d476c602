import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { requestId } from '../http/request-id.ts';
import { checkPath, keptStampedAnswer, type IndexAnswers } from '../registry/lookups/index.ts';
import type { RemoteFollower } from './remote-follower.ts';

/** As Fastify keeps an idle connection open (its default), so both halves of the server behave alike. */
const keepAliveMs = 72_000;
const checkQuery = `${checkPath}?`;

/** Where in the upstream's feed an answer stands, and how far behind it may be, as header names and values in turn: on every answer. */
export function freshnessHeaders(follower: RemoteFollower): string[] {
  const lag = follower.lagMs();
  const headers: string[] = [];
  if (follower.cursor !== undefined) headers.push('x-mirror-cursor', follower.cursor);
  if (lag !== null) headers.push('x-mirror-lag-ms', String(lag));
  return headers;
}

/**
 * The mirror's HTTP server (Fastify's `serverFactory`). A per-impression check whose answer is
 * kept for the index as it stands is answered here, before the framework sees it: that answer was
 * validated, computed and serialized by the route when first asked, and a read-only follower has
 * no credential, rate limit or shutdown drain to apply, so what is left is writing it, with the
 * route's headers. Anything else, and the first asking of each check, goes to Fastify.
 */
export function frontServer(
  answers: IndexAnswers<string>,
  followerOf: () => RemoteFollower,
  now: () => string,
  counted: { kept: number },
): (handler: (req: IncomingMessage, res: ServerResponse) => void) => Server {
  return (handler) => {
    const server = createServer((req, res) => {
      const follower = followerOf();
      const body =
        req.method === 'GET' && req.url?.startsWith(checkQuery)
          ? keptStampedAnswer(answers, follower, req.url, now)
          : undefined;
      if (body === undefined) return handler(req, res);
      counted.kept++;
      // The route's headers, as a flat list: no object built and walked per answer.
      const headers = [
        'content-type',
        'application/json; charset=utf-8',
        'content-length',
        String(Buffer.byteLength(body)),
        'access-control-allow-origin',
        '*',
        'vary',
        'Origin',
        'x-request-id',
        requestId(req),
        ...freshnessHeaders(follower),
      ];
      res.writeHead(200, headers);
      res.end(body);
    });
    server.keepAliveTimeout = keepAliveMs;
    return server;
  };
}
