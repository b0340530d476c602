import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { Queryable } from '../../../../src/db/database.ts';
import { SafeFetch, type SafeFetchInit, type SafeResponse } from '../../../../src/net/safe-fetch.ts';
import { scheduleProbe } from '../../../../src/registry/agents/probing/index.ts';

/**
 * Enrolls an agent the way the enrollment service will (a registry_agents row, its probe due at
 * `at`), written directly until that service lands. The organization is made on first use.
 */
export async function enrollAgent(db: Queryable, agentUrl: string, type: string, at: Date): Promise<void> {
  const org = '00000000-0000-4000-8000-00000000a9e1';
  await db.query(
    `insert into organizations (id, slug, name) values ($1, 'probe-test-org', 'Probe test') on conflict (id) do nothing`,
    [org],
  );
  await db.query(
    `insert into registry_agents (agent_url, host, organization_id, type, name, visibility, enrolled_at, updated_at) values ($1, $2, $3, $4, $5, 'public', $6, $6)`,
    [agentUrl, new URL(agentUrl).host, org, type, `Agent ${randomUUID().slice(0, 8)}`, at],
  );
  await scheduleProbe(db, agentUrl, at);
}

/** The SSRF-safe client, counting the get_ap_capabilities calls it carries (MCP tools/call bodies). */
export class CountingFetch extends SafeFetch {
  capabilityCalls = 0;
  override fetch(url: string | URL, init: SafeFetchInit = {}): Promise<SafeResponse> {
    const body = typeof init.body === 'string' ? init.body : init.body ? Buffer.from(init.body).toString() : '';
    if (body.includes('"tools/call"') && body.includes('"get_ap_capabilities"')) this.capabilityCalls++;
    return super.fetch(url, init);
  }
}

/**
 * A minimal MCP server (stateless Streamable HTTP, JSON answers) on loopback whose
 * get_ap_capabilities answers `capabilities`, whatever it is; any other tool is unknown and
 * answered with the error envelope. Every path serves it, so each path is another agent.
 */
export async function startFakeMcpAgent(
  capabilities: unknown,
): Promise<{ url: string; host: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(req.method === 'GET' && req.url?.endsWith('/mcp') ? 405 : 404).end();
      return;
    }
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(raw) as {
        id?: number;
        method: string;
        params?: { name?: string; protocolVersion?: string };
      };
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const result = answer(message.method, message.params ?? {});
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  const answer = (method: string, params: { name?: string; protocolVersion?: string }): Record<string, unknown> => {
    if (method === 'initialize')
      return {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'fake', version: '1.0.0' },
      };
    if (method === 'tools/list') return { tools: [{ name: 'get_ap_capabilities', inputSchema: { type: 'object' } }] };
    if (method === 'tools/call' && params.name === 'get_ap_capabilities')
      return { content: [{ type: 'text', text: JSON.stringify(capabilities) }] };
    return {
      isError: true,
      content: [
        { type: 'text', text: JSON.stringify({ code: 'INVALID_REQUEST', message: `Unknown task "${params.name}".` }) },
      ],
    };
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
