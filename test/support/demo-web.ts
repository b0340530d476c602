import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type net from 'node:net';
import { publicTestCredential } from '../../src/config.ts';
import { loadWorld } from '../../src/registry/demo/index.ts';
import { parseAllowList } from '../../src/net/allow-list.ts';
import { staticResolver } from '../../src/net/resolver.ts';
import { SafeFetch } from '../../src/net/safe-fetch.ts';

const fixtures = new URL('./fixtures/', import.meta.url);

/**
 * The demo world on the web, for the registry's fetch client: each demo publisher serves its
 * current adagents.json at its well-known address (one TLS server on loopback, a certificate naming
 * them all), and the test deployment's agents are published at `http://agents.example/<tenant>/mcp`
 * by an operator who answers discovery without a credential: a gateway that adds the deployment's
 * public test credential to what it forwards. The fetch client maps exactly these names to loopback;
 * every other name resolves to nothing, so no test reaches past the machine.
 */
export interface DemoWeb {
  fetcher: SafeFetch;
  /** The publishers served, by domain. */
  publishers: string[];
  /** The origin the agents are published at: the server's PUBLIC_URL, so their A2A cards name it. */
  agentsOrigin: string;
  agents: { sales: string; creative: string; signals: string };
  /** The gateway forwards to the registry server from now on (it listens after the fetch client is made). */
  pointAt(serverUrl: string): void;
  close(): Promise<void>;
}

export async function startDemoWeb(): Promise<DemoWeb> {
  const files = new Map(loadWorld().publishers.map((p) => [p.domain, JSON.stringify(p.document)]));
  const tls = createHttpsServer(
    {
      key: readFileSync(new URL('demo-publishers.key', fixtures)),
      cert: readFileSync(new URL('demo-publishers.crt', fixtures)),
    },
    (req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
      const file = files.get(host);
      if (req.url !== '/.well-known/adagents.json' || file === undefined)
        return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      res.writeHead(200, { 'content-type': 'application/json' }).end(file);
    },
  );

  let target: URL | undefined;
  const gateway = http.createServer((req, res) => {
    if (!target) return void res.writeHead(503).end();
    // Host stays the published name, which the deployment serves (its PUBLIC_URL).
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${publicTestCredential}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });

  const [tlsPort, gatewayPort] = await Promise.all([listen(tls), listen(gateway)]);
  const names = [...files.keys()].map((domain) => `${domain}=127.0.0.1:${tlsPort}`);
  const fetcher = new SafeFetch({
    resolver: staticResolver({}),
    allow: parseAllowList([...names, `agents.example=127.0.0.1:${gatewayPort}`].join(',')),
    ca: readFileSync(new URL('demo-publishers.crt', fixtures)),
    timeoutMs: 5000,
  });
  const agentsOrigin = 'http://agents.example';
  return {
    fetcher,
    publishers: [...files.keys()],
    agentsOrigin,
    agents: {
      sales: `${agentsOrigin}/sales/mcp`,
      creative: `${agentsOrigin}/creative/mcp`,
      signals: `${agentsOrigin}/signals/mcp`,
    },
    pointAt: (serverUrl) => void (target = new URL(serverUrl)),
    close: async () => {
      await fetcher.close();
      await Promise.all([close(tls), close(gateway)]);
    },
  };
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

function close(server: http.Server | HttpsServer): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
