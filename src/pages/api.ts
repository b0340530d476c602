import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isRecord, parseJson } from '../protocol/json-values.ts';

export type Json = Record<string, unknown>;

/** An answer of the registry's API: its status and JSON body (`{}` when it was not an object). */
export interface ApiAnswer {
  status: number;
  body: Json;
}

export type Query = Record<string, string | number | boolean | undefined>;

/**
 * How a page reads the API: as the visitor, inside this process; a POST when `body` is given,
 * with the visitor's own credential when `bearer` is (the feed viewer's).
 */
export type ApiReader = (
  request: FastifyRequest,
  path: string,
  query?: Query,
  body?: unknown,
  bearer?: string,
) => Promise<ApiAnswer>;

/**
 * Reads the registry's API inside this process (`app.inject`: no socket, every hook a request
 * meets over HTTP), under the visitor's address and anonymously unless the visitor gave a
 * credential, so a page shows exactly what the API answers them: one query path, the API's.
 */
export function apiReader(app: FastifyInstance): ApiReader {
  return async (request, path, query = {}, body, bearer) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query))
      if (value !== undefined && value !== '') search.set(key, String(value));
    const qs = search.toString();
    const res = await app.inject({
      method: body === undefined ? 'GET' : 'POST',
      url: qs ? `${path}?${qs}` : path,
      headers: {
        accept: 'application/json',
        'x-request-id': request.id,
        ...(request.headers.host ? { host: request.headers.host } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      remoteAddress: request.ip,
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    const parsed = parseJson(res.payload);
    return { status: res.statusCode, body: isRecord(parsed) ? parsed : {} };
  };
}
