import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { AllowList, type HostMapping } from '../../src/net/allow-list.ts';
import type { Resolver } from '../../src/net/resolver.ts';
import { SafeFetch } from '../../src/net/safe-fetch.ts';

const fixtures = new URL('./fixtures/', import.meta.url);

/** A response a fake publisher gives for one path. */
export interface Page {
  status?: number;
  body: string | object;
  contentType?: string;
  headers?: Record<string, string>;
  /** Answer only after this long (a slow or hung server). */
  delayMs?: number;
  /** Answer only once this resolves: the test holds requests in flight until it lets them go. */
  heldUntil?: Promise<unknown>;
}

/**
 * Answers with `page`, or 404 when there is none. A page served with an `etag` or `last-modified`
 * header answers a request carrying it back (`if-none-match`, `if-modified-since`) with 304 and no
 * body, as a real web server does.
 */
export function sendPage(req: IncomingMessage, res: ServerResponse, page: Page | undefined): void {
  if (!page) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  const { etag, 'last-modified': lastModified } = page.headers ?? {};
  const notModified =
    (etag !== undefined && req.headers['if-none-match'] === etag) ||
    (lastModified !== undefined && req.headers['if-modified-since'] === lastModified);
  if (notModified && (page.status ?? 200) === 200) {
    res.writeHead(304, { ...(etag ? { etag } : {}) }).end();
    return;
  }
  const body = typeof page.body === 'string' ? page.body : JSON.stringify(page.body);
  const send = () => {
    if (res.destroyed) return;
    const contentType = page.contentType ?? (typeof page.body === 'string' ? 'text/html' : 'application/json');
    res.writeHead(page.status ?? 200, { 'content-type': contentType, ...page.headers }).end(body);
  };
  const answer = () => (page.delayMs ? void setTimeout(send, page.delayMs).unref() : send());
  if (page.heldUntil) void page.heldUntil.then(answer);
  else answer();
}

/**
 * Publishers on the web, simulated: one HTTPS server on loopback answers for every
 * `<name>.ap.test`, by Host header, with a certificate only the returned fetch client trusts. The
 * fetch client is the real SSRF-safe one; only its allow list and trusted CA are set for the test.
 */
export interface Publishers {
  /** Sets what `https://{host}{path}` answers. */
  serve(host: string, path: string, page: Page): void;
  /** Requests seen, as `host path`. */
  seen: string[];
  /** The same requests with the Authorization header each carried (undefined when none). */
  authorizations: Array<string | undefined>;
  fetcher: SafeFetch;
  close(): Promise<void>;
}

class TestPublishersAllowList extends AllowList {
  readonly #target: HostMapping;
  constructor(target: HostMapping) {
    super([], new Map());
    this.#target = target;
  }
  override permits(host: string): boolean {
    return host.endsWith('.ap.test');
  }
  override mapping(host: string): HostMapping | undefined {
    return host.endsWith('.ap.test') ? this.#target : undefined;
  }
}

/** `resolver` answers for names outside `*.ap.test` (the system's by default): tests point names at private addresses with it. */
export async function startPublishers(options: { resolver?: Resolver } = {}): Promise<Publishers> {
  const pages = new Map<string, Page>();
  const seen: string[] = [];
  const authorizations: Array<string | undefined> = [];
  const cert = readFileSync(new URL('publishers.crt', fixtures));
  const server: Server = createServer({ key: readFileSync(new URL('publishers.key', fixtures)), cert }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = (req.url ?? '/').split('?')[0]!;
    seen.push(`${host} ${path}`);
    authorizations.push(req.headers.authorization);
    sendPage(req, res, pages.get(`${host} ${path}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fetcher = new SafeFetch({
    allow: new TestPublishersAllowList({ address: '127.0.0.1', port }),
    ca: cert,
    timeoutMs: 5000,
    ...(options.resolver ? { resolver: options.resolver } : {}),
  });
  return {
    serve: (host, path, page) => pages.set(`${host} ${path}`, page),
    seen,
    authorizations,
    fetcher,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
