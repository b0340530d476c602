import type { SafeFetch, SafeFetchInit } from '../../net/safe-fetch.ts';

export interface FetchAdapterOptions {
  /** Headers sent on every request unless the request sets them itself (e.g. `authorization`). */
  headers?: Record<string, string>;
  /** Called with each request's outcome, for callers that count or time them (the prober's latency). */
  onResponse?: (request: { url: string; method: string }, status: number | undefined) => void;
  /** Caps on each request, replacing the client's own (SafeFetchInit). */
  timeoutMs?: number;
  maxBytes?: number;
  /** Aborts every request once it fires: a deadline for a whole exchange of several requests. */
  signal?: AbortSignal;
}

// A response with one of these statuses has no body; `new Response` refuses one.
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` for the MCP and A2A SDK clients that goes through the SSRF-safe client, so an agent URL
 * someone enrolled is fetched only under the fetch policy (public addresses, checked redirects,
 * capped time and size). SafeFetch buffers whole answers, which suits request/response calls (a
 * stateless MCP POST answered as server-sent events ends with its answer), but not a stream held
 * open: the MCP client's optional standalone GET stream is therefore answered here with 405, which
 * the transport reads as "this server offers no such stream" (Streamable HTTP, section on GET).
 */
export function fetchThrough(safe: SafeFetch, options: FetchAdapterOptions = {}): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = request ? request.url : String(input);
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = {
      ...lowerCase(options.headers ?? {}),
      ...headerRecord(request?.headers),
      ...headerRecord(init?.headers),
    };
    const signals = [init?.signal ?? request?.signal ?? undefined, options.signal].filter((s): s is AbortSignal => !!s);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    signal?.throwIfAborted();
    if (method === 'GET' && wantsOnlyEventStream(headers['accept'])) {
      options.onResponse?.({ url, method }, 405);
      return new Response(null, { status: 405, headers: { allow: 'POST' } });
    }
    const safeInit: SafeFetchInit = { method, headers };
    if (options.timeoutMs !== undefined) safeInit.timeoutMs = options.timeoutMs;
    if (options.maxBytes !== undefined) safeInit.maxBytes = options.maxBytes;
    const body = init?.body ?? (request && request.body ? await request.arrayBuffer() : undefined);
    if (body !== undefined && body !== null) safeInit.body = await bodyBytes(body);
    let answer;
    try {
      answer = await abortable(safe.fetch(url, safeInit), signal);
    } catch (err) {
      options.onResponse?.({ url, method }, undefined);
      throw err;
    }
    options.onResponse?.({ url, method }, answer.status);
    const responseBody = nullBodyStatuses.has(answer.status) || method === 'HEAD' ? null : new Uint8Array(answer.body);
    return new Response(responseBody, { status: answer.status, headers: answer.headers });
  };
}

function wantsOnlyEventStream(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  return types.includes('text/event-stream') && types.every((t) => t === 'text/event-stream');
}

function headerRecord(headers: ConstructorParameters<typeof Headers>[0] | undefined): Record<string, string> {
  if (!headers) return {};
  return lowerCase(Object.fromEntries(new Headers(headers).entries()));
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

async function bodyBytes(body: NonNullable<RequestInit['body']>): Promise<string | Uint8Array> {
  if (typeof body === 'string') return body;
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** SafeFetch takes no signal; a caller that gives up still gets its AbortError at once. */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(
        signal.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted.', 'AbortError'),
      );
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
