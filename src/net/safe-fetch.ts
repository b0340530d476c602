import type { IncomingHttpHeaders } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import pkg from '../../package.json' with { type: 'json' };
import { parseBoundedJson } from '../protocol/json-depth.ts';
import { parseAllowList, type AllowList } from './allow-list.ts';
import type { FetchPolicy } from './destination.ts';
import { FetchError } from './fetch-error.ts';
import { guardedConnector } from './guarded-connector.ts';
import { unbracket } from './host-name.ts';
import { systemResolver, type Resolver } from './resolver.ts';

export interface SafeFetchOptions {
  /** Defaults to the system resolver. */
  resolver?: Resolver;
  /** Defaults to empty: only public addresses. */
  allow?: AllowList;
  maxRedirects?: number;
  /** Whole fetch, redirects and body included. */
  timeoutMs?: number;
  maxBytes?: number;
  userAgent?: string;
  /** Certificate authorities trusted instead of the system's, for tests that serve TLS. */
  ca?: string | Buffer | Array<string | Buffer>;
}

export interface SafeFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  maxBytes?: number;
  timeoutMs?: number;
  /** `error` refuses any redirect, for fetches whose location is itself authoritative. */
  redirect?: 'follow' | 'error';
}

/** Any status: a 404 or a 500 is a response for the caller to judge, not a FetchError. */
export interface SafeResponse {
  /** After redirects. */
  url: string;
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The body as UTF-8, without a byte-order mark. */
  text(): string;
  /** `text()` parsed; throws SyntaxError when it is not JSON, or nests deeper than MAX_JSON_DEPTH. */
  json(): unknown;
}

const defaults = { maxRedirects: 5, timeoutMs: 10_000, maxBytes: 1024 * 1024, userAgent: `ap-registry/${pkg.version}` };
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const bodyHeaders = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
const credentialHeaders = ['authorization', 'cookie', 'proxy-authorization'];
const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * The one way this project fetches a URL someone else supplied. Connects only to public
 * addresses (checked when each connection opens, see guarded-connector.ts) unless the allow list
 * says otherwise, follows redirects itself so every hop is checked again, and bounds time and size.
 */
export class SafeFetch {
  readonly policy: FetchPolicy;
  readonly #agent: Agent;
  readonly #maxRedirects: number;
  readonly #timeoutMs: number;
  readonly #maxBytes: number;
  readonly #userAgent: string;

  constructor(options: SafeFetchOptions = {}) {
    this.policy = { resolver: options.resolver ?? systemResolver, allow: options.allow ?? parseAllowList('') };
    this.#maxRedirects = options.maxRedirects ?? defaults.maxRedirects;
    this.#timeoutMs = options.timeoutMs ?? defaults.timeoutMs;
    this.#maxBytes = options.maxBytes ?? defaults.maxBytes;
    this.#userAgent = options.userAgent ?? defaults.userAgent;
    const connect = guardedConnector(this.policy, {
      timeout: this.#timeoutMs,
      ...(options.ca ? { ca: options.ca } : {}),
    });
    this.#agent = new Agent({ connect });
  }

  async fetch(url: string | URL, init: SafeFetchInit = {}): Promise<SafeResponse> {
    const timeoutMs = init.timeoutMs ?? this.#timeoutMs;
    const deadline = AbortSignal.timeout(timeoutMs);
    let target = checkedUrl(url);
    try {
      let method = (init.method ?? 'GET').toUpperCase();
      let body = init.body;
      const headers: Record<string, string> = { 'user-agent': this.#userAgent, ...lowerCaseKeys(init.headers ?? {}) };
      for (let redirects = 0; ; redirects++) {
        const response = await this.#agent.request({
          origin: target.origin,
          path: target.pathname + target.search,
          method: method as Dispatcher.HttpMethod,
          headers,
          body: body ?? null,
          signal: deadline,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        const location = redirectStatuses.has(response.statusCode) ? single(response.headers.location) : undefined;
        if (location === undefined) {
          const content = await readCapped(response, init.maxBytes ?? this.#maxBytes, method, target);
          return respond(target, response, content);
        }
        await response.body.dump().catch(() => {});
        if (init.redirect === 'error') {
          throw new FetchError(
            'redirect_refused',
            `${target.href} redirects (${response.statusCode}) and this fetch follows no redirects`,
            { host: hostOf(target) },
          );
        }
        if (redirects >= this.#maxRedirects) {
          throw new FetchError('too_many_redirects', `${target.href} redirects more than ${this.#maxRedirects} times`, {
            host: hostOf(target),
          });
        }
        const next = checkedUrl(location, target);
        // As browsers do: 303, and 301/302 after a POST, become a GET without the body.
        if (
          (response.statusCode === 303 && method !== 'HEAD') ||
          ([301, 302].includes(response.statusCode) && method === 'POST')
        ) {
          method = 'GET';
          body = undefined;
          for (const name of bodyHeaders) delete headers[name];
        }
        if (next.origin !== target.origin) for (const name of credentialHeaders) delete headers[name];
        target = next;
      }
    } catch (error) {
      throw asFetchError(error, target, deadline, timeoutMs);
    }
  }

  /**
   * A response read as it arrives (a Server-Sent Events stream): the same checks of the
   * destination, no redirects followed, the headers within the fetch timeout, and then at most
   * `idleMs` between two chunks of the body. `signal` ends it early.
   */
  async open(url: string | URL, init: { headers?: Record<string, string>; idleMs: number; signal?: AbortSignal }) {
    const target = checkedUrl(url);
    const signal = init.signal ?? new AbortController().signal;
    try {
      const response = await this.#agent.request({
        origin: target.origin,
        path: target.pathname + target.search,
        method: 'GET',
        headers: { 'user-agent': this.#userAgent, ...lowerCaseKeys(init.headers ?? {}) },
        signal,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: init.idleMs,
      });
      return {
        status: response.statusCode,
        headers: flatHeaders(response.headers),
        body: response.body as AsyncIterable<Buffer>,
        /** Reads a short body whole (an error's), within the fetch's limits. */
        text: async () => (await readCapped(response, this.#maxBytes, 'GET', target)).toString('utf8'),
        close: () => void response.body.on('error', () => {}).destroy(),
      };
    } catch (error) {
      throw asFetchError(error, target, signal, this.#timeoutMs);
    }
  }

  /** Closes pooled connections; in-flight fetches finish first. */
  async close(): Promise<void> {
    await this.#agent.close();
  }
}

function checkedUrl(input: string | URL, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch (error) {
    throw new FetchError('invalid_url', `"${String(input)}" is not a valid URL`, { cause: error });
  }
  const host = hostOf(url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError(
      'unsupported_scheme',
      `${url.protocol} URLs cannot be fetched (${host || url.href}); only http: and https:`,
      { host },
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new FetchError('credentials_in_url', `the URL for ${host} carries credentials, which are never sent`, {
      host,
    });
  }
  if (host === '') throw new FetchError('invalid_url', `"${url.href}" has no host`);
  return url;
}

async function readCapped(
  response: Dispatcher.ResponseData,
  maxBytes: number,
  method: string,
  target: URL,
): Promise<Buffer> {
  const tooLarge = () =>
    new FetchError('too_large', `${target.href} sent more than ${maxBytes} bytes`, { host: hostOf(target) });
  const declared = Number(single(response.headers['content-length']));
  if (method !== 'HEAD' && declared > maxBytes) {
    // Destroying emits an abort error; the FetchError below is the one that matters.
    response.body.on('error', () => {}).destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Counting while streaming stops a server that lies about, or omits, Content-Length.
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function respond(target: URL, response: Dispatcher.ResponseData, body: Buffer): SafeResponse {
  const text = () => new TextDecoder('utf-8').decode(body);
  return {
    url: target.href,
    status: response.statusCode,
    headers: flatHeaders(response.headers),
    body,
    text,
    // What a stranger's server sends is walked recursively later (validation, equality, serialization).
    json: () => parseBoundedJson(text()),
  };
}

function asFetchError(error: unknown, target: URL, deadline: AbortSignal, timeoutMs: number): FetchError {
  if (error instanceof FetchError) return error;
  const host = hostOf(target);
  const code = (error as { code?: unknown } | null)?.code;
  if (deadline.aborted || (typeof code === 'string' && timeoutCodes.has(code))) {
    return new FetchError('timeout', `${target.href} did not answer within ${timeoutMs} ms`, { host, cause: error });
  }
  return new FetchError('connection_failed', `${target.href} failed: ${(error as Error).message}`, {
    host,
    cause: error,
  });
}

function hostOf(url: URL): string {
  return unbracket(url.hostname);
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
