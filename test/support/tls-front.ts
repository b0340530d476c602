import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { AllowList } from '../../src/net/allow-list.ts';
import { staticResolver } from '../../src/net/resolver.ts';
import { SafeFetch } from '../../src/net/safe-fetch.ts';

const fixtures = new URL('./fixtures/', import.meta.url);
const cert = readFileSync(new URL('publishers.crt', fixtures));
const key = readFileSync(new URL('publishers.key', fixtures));

/** An HTTPS front for a test server that listens over plain HTTP. */
export interface TlsFront {
  /** `https://ap.test:<port>`: the deployment's public base, as the agents behind it name themselves. */
  url: string;
  /** Where requests go: the test server's URL, known once it listens. */
  forwardTo(target: string): void;
  /** Stops answering: the deployment behind it is unreachable. */
  close(): Promise<void>;
  /** A fetch client that reaches the front by its name and trusts its certificate, and reaches nothing else. */
  fetcher(): SafeFetch;
}

/**
 * A TLS-terminating front on loopback (the fixtures' certificate for ap.test), forwarding every
 * request to a test server over HTTP with the server's own Host: how a deployment behind TLS looks
 * to agents that insist on https URLs (a governance agent's, in sync_governance).
 */
export async function startTlsFront(): Promise<TlsFront> {
  let target: URL | undefined;
  const server = createServer({ key, cert }, (req, res) => {
    if (!target) return void res.writeHead(503).end();
    const upstream = httpRequest(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://ap.test:${port}`,
    forwardTo(url) {
      target = new URL(url);
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
    fetcher: () =>
      new SafeFetch({
        resolver: staticResolver({ 'ap.test': ['127.0.0.1'] }),
        allow: new AllowList([{ host: 'ap.test', port }], new Map()),
        ca: cert,
      }),
  };
}
