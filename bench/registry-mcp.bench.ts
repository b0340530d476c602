import { startServerProcess } from './support/child-server.ts';
import { benchOptions, load, type LoadResult } from './support/load.ts';
import { checkPaths } from './support/lookup-world.ts';
import { mcpCall, toolResult } from './support/tool-result.ts';

const TOKEN = 'bench-admin-key-0123456789abcdef0123456789';

/**
 * The registry's `/mcp` `tools/call` of `check_property_authorization` against the route it
 * forwards to, `GET /api/registry/validate/property-authorization`, on one `ap` (the lookups
 * bench's world of 300 publishers, the same 1,500 checks in rotation, the same credential on
 * both), in alternating rounds: what answering over MCP costs on top of the route itself.
 */
export async function registryMcpBench(): Promise<void> {
  const server = await startServerProcess(new URL('./support/registry-server.ts', import.meta.url), {
    AP_ADMIN_KEY: TOKEN,
    LOG_LEVEL: 'info',
    ...(process.env['BENCH_PROFILE']
      ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env['BENCH_PROFILE']}` }
      : {}),
  });
  const paths = checkPaths();
  const authorization = `Bearer ${TOKEN}`;
  const calls = paths.map((path, i) => ({
    path: '/mcp',
    ...mcpCall(TOKEN, 'check_property_authorization', Object.fromEntries(new URL(path, server.url).searchParams), i),
  }));
  const rest = {
    ...benchOptions,
    headers: { authorization },
    requests: paths.map((path) => ({ method: 'GET' as const, path })),
  };
  const mcp = { ...benchOptions, requests: calls };
  const rounds = Number(process.env['BENCH_ROUNDS'] ?? 2);
  const results: Record<'mcp' | 'rest', LoadResult[]> = { mcp: [], rest: [] };
  try {
    // The tool's answer is the route's before anything is measured, but for the moment it was checked.
    const unstamped = (text: string) => JSON.stringify({ ...(JSON.parse(text) as object), checked_at: undefined });
    for (let i = 0; i < 5; i++) {
      const direct = await (await fetch(`${server.url}${paths[i]}`)).text();
      const viaMcp = await toolResult(`${server.url}/mcp`, calls[i]!);
      if (viaMcp.isError || unstamped(viaMcp.text) !== unstamped(direct))
        throw new Error(`check_property_authorization over MCP answered ${viaMcp.text}, the route ${direct}`);
    }
    await load(server.url, { ...rest, seconds: 1 }); // warm-up
    await load(server.url, { ...mcp, seconds: 1 });
    for (let i = 0; i < rounds; i++) {
      results.rest.push(await load(server.url, rest));
      results.mcp.push(await load(server.url, mcp));
    }
  } finally {
    await server.stop();
  }
  const best = (runs: LoadResult[]) => runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  const rows: Array<[string, LoadResult]> = [
    ['GET /api/registry/validate/property-authorization', best(results.rest)],
    ['/mcp tools/call check_property_authorization', best(results.mcp)],
  ];
  for (const [name, r] of rows) {
    if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
  }
  const [[, restBest], [, mcpBest]] = rows as [[string, LoadResult], [string, LoadResult]];
  console.log(
    `registry-mcp: ${paths.length} checks in rotation, ${benchOptions.connections} connections, ${benchOptions.seconds}s x ${rounds} rounds, best round each, on one ap`,
  );
  console.table(
    Object.fromEntries(
      rows.map(([name, r]) => [
        name,
        { 'calls/s': Math.round(r.requestsPerSecond), 'p50 ms': r.p50Ms, 'p99 ms': r.p99Ms },
      ]),
    ),
  );
  console.log(
    `registry-mcp tools/call vs REST check: ${Math.round(mcpBest.requestsPerSecond)} vs ${Math.round(restBest.requestsPerSecond)} calls/s (ratio ${(mcpBest.requestsPerSecond / restBest.requestsPerSecond).toFixed(2)}), p50 ${mcpBest.p50Ms} vs ${restBest.p50Ms} ms, p99 ${mcpBest.p99Ms} vs ${restBest.p99Ms} ms`,
  );
}
