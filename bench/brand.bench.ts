import { publicTestCredential } from '../src/config.ts';
import { serveAp } from '../test/support/cli.ts';
import { benchOptions, load, type LoadResult } from './support/load.ts';
import { mcpCall, toolResult } from './support/tool-result.ts';

/** The target: each read of the brand agent over MCP against /healthz of the same server. */
const targets = { throughput: 0.3 };

/**
 * The brand agent of `ap serve` (embedded PGlite, in memory, the demo world's brands): a
 * get_brand_identity of a demo brand (the registry's record read, its house's too) and a get_rights
 * search of the roster (filtered, ranked, exclusivity read from the grants), each against
 * `/healthz`, in alternating rounds.
 */
export async function brandBench(): Promise<void> {
  const ap = await serveAp(['--data-dir', 'memory://'], { AGENTS: 'true', AP_DEMO: 'true' });
  ap.discardLogs();
  try {
    const endpoint = `${ap.url}/brand/mcp`;
    const calls = {
      get_brand_identity: mcpCall(publicTestCredential, 'get_brand_identity', {
        brand_id: 'northwind-outdoor.example',
      }),
      get_rights: mcpCall(publicTestCredential, 'get_rights', {
        query: 'trail runner to endorse our hiking gear',
        uses: ['endorsement', 'likeness'],
        countries: ['US'],
      }),
    };
    for (const [name, call] of Object.entries(calls)) {
      const first = await toolResult(endpoint, call);
      if (first.isError) throw new Error(`${name} failed: ${first.text}`);
      await load(endpoint, { ...benchOptions, ...call, seconds: 1 }); // warm-up
    }
    const rounds = Number(process.env['BENCH_ROUNDS'] ?? 2);
    const runs: Record<string, LoadResult[]> = { healthz: [], get_brand_identity: [], get_rights: [] };
    for (let i = 0; i < rounds; i++) {
      runs['healthz']!.push(await load(`${ap.url}/healthz`, benchOptions));
      for (const [name, call] of Object.entries(calls))
        runs[name]!.push(await load(endpoint, { ...benchOptions, ...call }));
    }
    for (const [name, list] of Object.entries(runs))
      for (const r of list)
        if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
    const best = (list: LoadResult[]) => list.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
    const healthz = best(runs['healthz']!);
    for (const name of Object.keys(calls)) {
      const r = best(runs[name]!);
      console.log(
        `brand ${name} over MCP vs /healthz: ${Math.round(r.requestsPerSecond)} calls/s vs ${Math.round(healthz.requestsPerSecond)} req/s; ` +
          `throughput ratio ${(r.requestsPerSecond / healthz.requestsPerSecond).toFixed(2)} (target >= ${targets.throughput}), ` +
          `p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms vs ${healthz.p99Ms} ms; ${benchOptions.connections} connections, ${benchOptions.seconds}s x ${rounds} rounds, best each`,
      );
    }
  } finally {
    await ap.stop();
  }
}
