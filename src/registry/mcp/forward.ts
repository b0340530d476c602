import type { FastifyInstance, FastifyRequest } from 'fastify';
import { passedOn } from '../../http/mcp/serialized.ts';
import { textRefusal } from '../../http/validation.ts';
import { ApError, errorBody } from '../../protocol/errors.ts';

import type { RegistryTool } from './tools.ts';

/** A tools/call result: the route's JSON body as text and as structured content; `isError` for any answer of 400 or more. */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

// Forwarded so the route sees the caller as the MCP endpoint did (credential, organization) and
// their log lines share one request id.
const forwardedHeaders = ['authorization', 'ap-organization', 'host'] as const;

/**
 * Calls the tool's route inside this process (`app.inject`: no socket, but every hook a request
 * meets over HTTP: authentication, rate limits under the caller's own address and credential,
 * validation, the error renderer), so the answer is the route's own, byte for byte.
 */
export async function forward(
  app: FastifyInstance,
  tool: RegistryTool,
  args: Record<string, unknown>,
  request: FastifyRequest,
): Promise<ToolResult> {
  const get = tool.method === 'GET';
  const rest = { ...args };
  const params: Record<string, unknown> = {};
  for (const [, name] of tool.url.matchAll(/:([A-Za-z_]+)/g)) {
    params[name!] = rest[name!];
    delete rest[name!];
  }
  // A GET route's arguments travel in its URL, which HTTP caps with the headers at 16 KB: more
  // could never reach the route over REST, so it is refused here at the cost of reading 16 KB of it.
  if (get && longerThan({ ...params, ...rest }, maxUrlBytes)) {
    return result(
      400,
      JSON.stringify(
        errorBody(
          new ApError(
            'validation_failed',
            `Invalid querystring: the arguments of ${tool.name} are longer than a URL may be (${maxUrlBytes / 1024} KB).`,
            { details: [{ in: 'querystring', field: '', message: 'is too long for a URL' }] },
          ),
        ),
      ),
    );
  }
  // Refused as the route would refuse it, before it is put in a URL (which cannot carry a lone surrogate).
  const refusal = textRefusal('params', params) ?? textRefusal(get ? 'querystring' : 'body', rest);
  if (refusal) return result(400, JSON.stringify(errorBody(refusal)));
  const missing: string[] = [];
  const path = tool.url.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
    const value = params[name];
    // A path segment of "." or ".." would be resolved away, and the call would reach another route.
    if (value === undefined || value === null || value === '.' || value === '..') missing.push(name);
    return encodeURIComponent(String(value ?? ''));
  });
  if (missing.length > 0) {
    const field = missing[0]!;
    return result(
      400,
      JSON.stringify(
        errorBody(
          new ApError('validation_failed', `Invalid params.${field}: is required.`, {
            details: [{ in: 'params', field, message: 'is required' }],
          }),
        ),
      ),
    );
  }
  const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': request.id };
  for (const name of forwardedHeaders) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const query = get ? queryString(rest) : '';
  if (!get) headers['content-type'] = 'application/json';
  const res = await app.inject({
    method: tool.method,
    url: query ? `${path}?${query}` : path,
    headers,
    remoteAddress: request.ip,
    ...(get ? {} : { payload: JSON.stringify(rest) }),
  });
  return result(res.statusCode, res.payload);
}

/** Node's default limit on a request's line and headers together, which a GET's query string must fit in. */
const maxUrlBytes = 16 * 1024;

/** Whether the keys and values of `args` add up to more than `budget` characters; reads no more than that. */
function longerThan(args: Record<string, unknown>, budget: number): boolean {
  let size = 0;
  const stack: unknown[] = [args];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value !== null && typeof value === 'object') {
      for (const key in value) {
        size += key.length + 2;
        if (size > budget) return true;
        stack.push((value as Record<string, unknown>)[key]);
      }
    } else {
      size += typeof value === 'string' ? value.length : String(value).length;
      if (size > budget) return true;
    }
  }
  return false;
}

function result(status: number, body: string): ToolResult {
  // The answer carries the route's body as it was sent: not parsed, not serialized a second time.
  const structured = body.startsWith('{') ? passedOn(body) : undefined;
  return {
    content: [{ type: 'text', text: body }],
    ...(structured ? { structuredContent: structured } : {}),
    ...(status >= 400 ? { isError: true as const } : {}),
  };
}

/** Arguments as a query string: arrays repeat their key (as a repeatable parameter is sent), null is left out. */
function queryString(args: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(args)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      query.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  return query.toString();
}
