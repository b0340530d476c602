import { startServerProcess } from './support/child-server.ts';
import { benchOptions, load, type LoadResult } from './support/load.ts';

const TOKEN = 'bench-admin-key-0123456789abcdef0123456789';
const targets = { throughput: 0.45, p99: 3 };

/**
 * An MCP `tools/call` of a trivial task (echo: authentication through the credential cache,
 * argument validation, the stateless dispatcher, the answer as a server-sent event) against
 * `/healthz` of the same server, in alternating rounds.
 */
export async function mcpBench(): Promise<void> {
  const server = await startServerProcess(new URL('./support/agent-server.ts', import.meta.url), {
    AP_ADMIN_KEY: TOKEN,
    LOG_LEVEL: 'info',
  });
  const call = {
    ...benchOptions,
    method: 'POST' as const,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${TOKEN}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'ping' } },
    }),
  };
  const rounds = Number(process.env['BENCH_ROUNDS'] ?? 2);
  const results: Record<'mcp' | 'healthz', LoadResult[]> = { mcp: [], healthz: [] };
  try {
    await load(`${server.url}/test/mcp`, { ...call, seconds: 1 }); // warm-up
    for (let i = 0; i < rounds; i++) {
      results.healthz.push(await load(`${server.url}/healthz`, benchOptions));
      results.mcp.push(await load(`${server.url}/test/mcp`, call));
    }
  } finally {
    await server.stop();
  }
  const best = (runs: LoadResult[]) => runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  const healthz = best(results.healthz);
  const rows: Array<[string, LoadResult]> = [
    ['/healthz', healthz],
    ['MCP tools/call', best(results.mcp)],
  ];
  for (const [name, r] of rows) {
    if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
  }
  const throughputRatio = (r: LoadResult) => r.requestsPerSecond / healthz.requestsPerSecond;
  const p99Ratio = (r: LoadResult) => r.p99Ms / Math.max(healthz.p99Ms, 1);
  console.log(
    `mcp: tools/call echo vs /healthz on one server, ${benchOptions.connections} connections, ${benchOptions.seconds}s x ${rounds} rounds, best round each`,
  );
  console.table(
    Object.fromEntries(
      rows.map(([name, r]) => [
        name,
        {
          'calls/s': Math.round(r.requestsPerSecond),
          'p50 ms': r.p50Ms,
          'p99 ms': r.p99Ms,
          'throughput / healthz': Number(throughputRatio(r).toFixed(2)),
          'p99 / healthz p99': Number(p99Ratio(r).toFixed(2)),
        },
      ]),
    ),
  );
  const mcp = best(results.mcp);
  console.log(
    `mcp tools/call / healthz: throughput ratio ${throughputRatio(mcp).toFixed(2)} (target >= ${targets.throughput}), p99 ratio ${p99Ratio(mcp).toFixed(2)} (target <= ${targets.p99})`,
  );
}
