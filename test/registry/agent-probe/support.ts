import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { publicTestCredential } from '../../../src/config.ts';
import { parseAllowList } from '../../../src/net/allow-list.ts';
import { staticResolver } from '../../../src/net/resolver.ts';
import { SafeFetch, type SafeFetchInit, type SafeResponse } from '../../../src/net/safe-fetch.ts';
import { ManualClock } from '../../support/clock.ts';
import type { TestEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { tcpProxy } from '../../support/tcp-proxy.ts';

/** The SSRF-safe client, counting the requests it is asked to make. */
export class CountingFetch extends SafeFetch {
  requests = 0;
  override fetch(url: string | URL, init: SafeFetchInit = {}): Promise<SafeResponse> {
    this.requests++;
    return super.fetch(url, init);
  }
}

/** What the hostile host's fake MCP server answers per tool (the JSON payload of the tool result). */
const fakeAnswers: Record<string, unknown> = {
  get_ap_capabilities: { ap: { major_versions: [3] }, supported_protocols: ['creative'] },
  list_creative_formats: { format_list: 'not an array of formats' },
  get_products: { code: 'POLICY_VIOLATION', message: 'No tobacco.' },
};

/**
 * A host that misbehaves on purpose: redirects to the metadata address and to loopback, answers
 * HTML, sends too much, asks a credential of everyone (/locked), and (at /fake/mcp) an MCP server whose task answers are not the tasks'.
 */
async function startHostile(serverPort: () => number): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    if (path.startsWith('/to-metadata'))
      return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    if (path.startsWith('/to-loopback'))
      return void res.writeHead(307, { location: `http://127.0.0.1:${serverPort()}/sales/mcp` }).end();
    if (path.startsWith('/locked'))
      return void res
        .writeHead(401, { 'www-authenticate': 'Bearer realm="locked"', 'content-type': 'application/json' })
        .end('{"error":"unauthorized"}');
    if (path.startsWith('/huge'))
      return void res
        .writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) })
        .end(Buffer.alloc(2 * 1024 * 1024, 32));
    if (path.startsWith('/fake/mcp') && req.method === 'POST') return void fakeMcp(req, res);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome to our shop</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function fakeMcp(req: http.IncomingMessage, res: http.ServerResponse): void {
  let raw = '';
  req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  req.on('end', () => {
    const message = JSON.parse(raw) as {
      id?: number;
      method: string;
      params?: { name?: string; protocolVersion?: string };
    };
    if (message.id === undefined) return void res.writeHead(202).end();
    const name = message.params?.name ?? '';
    const result =
      message.method === 'initialize'
        ? {
            protocolVersion: message.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'fake-agent', version: '0.0.1' },
          }
        : message.method === 'tools/list'
          ? { tools: Object.keys(fakeAnswers).map((tool) => ({ name: tool, inputSchema: { type: 'object' } })) }
          : {
              isError: name === 'get_products',
              content: [
                {
                  type: 'text',
                  text: JSON.stringify(fakeAnswers[name] ?? { code: 'INVALID_REQUEST', message: 'Unknown task.' }),
                },
              ],
            };
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
}

export interface ProbeWorld {
  server: TestServer;
  fetcher: CountingFetch;
  clock: ManualClock;
  /** The test deployment's agents, by the public name the probes reach them at. */
  agents: { sales: string; creative: string; signals: string };
  /** The hostile host's base URL. */
  hostile: string;
  /** A name whose address nothing listens on. */
  down: string;
  /** The server's own address (loopback), which probes must refuse. */
  loopback: string;
  /** GETs `path` on the server (query given as an object), with the agent credential unless `credential` is false. */
  get(
    path: string,
    query: Record<string, string>,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Json; headers: Headers }>;
  close(): Promise<void>;
}

export const agentCredential = { 'ap-agent-authorization': `Bearer ${publicTestCredential}` };

/**
 * The registry with the test deployment's agents, reached as `http://agents.example/...`
 * (PUBLIC_URL, so their A2A cards name it too) through a loopback proxy the fetch client's allow
 * list maps that name to. Other names resolve through a table: private and reserved addresses,
 * as real DNS would give them, and nothing leaves the machine. Probe limits are small (5 a minute
 * per IP, 8 per user) and the clock is the test's.
 */
export async function startProbeWorld(engine: TestEngine): Promise<ProbeWorld> {
  const proxy = await tcpProxy();
  let serverPort = 0;
  const hostile = await startHostile(() => serverPort);
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const closedPort = (closed.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));

  const fetcher = new CountingFetch({
    resolver: staticResolver({
      'intranet.example': ['10.1.2.3'],
      'metadata.example': ['169.254.169.254'],
      'split.example': ['93.184.216.34', '192.168.0.7'],
    }),
    allow: parseAllowList(
      `agents.example=127.0.0.1:${proxy.port},hostile.example=127.0.0.1:${hostile.port},down.example=127.0.0.1:${closedPort}`,
    ),
    timeoutMs: 2000,
  });
  const clock = new ManualClock();
  const server = await startTestServer(engine, {
    env: {
      AGENTS: 'true',
      PUBLIC_URL: 'http://agents.example',
      RATE_LIMIT_PROBES_PER_MINUTE: '5',
      RATE_LIMIT_PROBES_PER_MINUTE_PER_USER: '8',
    },
    deps: { fetcher, clock },
  });
  serverPort = Number(new URL(server.url).port);
  proxy.pointAt('127.0.0.1', serverPort);
  return {
    server,
    fetcher,
    clock,
    agents: {
      sales: 'http://agents.example/sales/mcp',
      creative: 'http://agents.example/creative/mcp',
      signals: 'http://agents.example/signals/mcp',
    },
    hostile: 'http://hostile.example',
    down: 'http://down.example/mcp',
    loopback: `${server.url}/sales/mcp`,
    async get(path, query, headers = {}) {
      const res = await fetch(`${server.url}${path}?${new URLSearchParams(query)}`, { headers });
      return { status: res.status, body: await json(res), headers: res.headers };
    },
    close: async () => {
      await server.close();
      await fetcher.close();
      await hostile.close();
      await proxy.close();
    },
  };
}

/** The catalogue's error body: the code, a message, nothing else but details or retry_after. */
export function assertError(
  answer: { status: number; body: Json },
  status: number,
  code: string,
  message?: RegExp,
): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.error, code);
  assert.equal(typeof answer.body.message, 'string');
  for (const key of Object.keys(answer.body))
    assert.ok(['error', 'message', 'details', 'retry_after'].includes(key), key);
  if (message) assert.match(answer.body.message, message);
}
