import { randomUUID } from 'node:crypto';
import { identifiersOf, resolveList } from '../src/agents/governance/property-lists/resolve-list.ts';
import { publicTestCredential } from '../src/config.ts';
import { AuthorizationIndex } from '../src/registry/lookups/index.ts';
import { indexPublisher } from '../test/support/indexed-publisher.ts';
import { serveAp } from '../test/support/cli.ts';
import { benchOptions, load, type LoadResult } from './support/load.ts';
import { mcpCall, toolResult } from './support/tool-result.ts';

/** The targets: check_governance over MCP against /healthz of the same server. */
const targets = { throughput: 0.3, p99: 3 };

/**
 * The governance agent of `ap serve` (embedded PGlite, in memory): an intent check of a
 * create_media_buy against a synced plan (the plan read, the budget summed, the approval signed
 * with the governance key, the check written to the audit log) against `/healthz`, in alternating
 * rounds.
 */
export async function governanceBench(): Promise<void> {
  const ap = await serveAp(['--data-dir', 'memory://'], {
    AGENTS: 'true',
    ...(process.env['BENCH_PROFILE']
      ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env['BENCH_PROFILE']}` }
      : {}),
  });
  ap.discardLogs();
  try {
    const endpoint = `${ap.url}/governance/mcp`;
    const planId = `bench_${randomUUID().slice(0, 8)}`;
    const synced = await toolResult(
      endpoint,
      mcpCall(publicTestCredential, 'sync_plans', {
        idempotency_key: randomUUID(),
        plans: [
          {
            plan_id: planId,
            brand: { domain: 'acme.example' },
            objectives: 'Benchmark plan',
            budget: { total: 1_000_000_000, currency: 'USD', reallocation_threshold: 0 },
            flight: { start: '2026-01-01T00:00:00Z', end: '2030-12-31T00:00:00Z' },
            countries: ['US'],
          },
        ],
      }),
    );
    if (synced.isError) throw new Error(`sync_plans failed: ${synced.text}`);
    const check = mcpCall(publicTestCredential, 'check_governance', {
      plan_id: planId,
      caller: 'https://buyer.example',
      tool: 'create_media_buy',
      payload: {
        packages: [{ budget: 5_000 }],
        geo: { countries: ['US'] },
        seller_agent_url: 'https://seller.example/mcp',
      },
    });
    const first = await toolResult(endpoint, check);
    if (first.isError || (JSON.parse(first.text) as { status: string }).status !== 'approved')
      throw new Error(`check_governance did not approve: ${first.text}`);
    const call = { ...benchOptions, ...check };
    await load(endpoint, { ...call, seconds: 1 }); // warm-up
    const rounds = Number(process.env['BENCH_ROUNDS'] ?? 2);
    const runs: Record<'healthz' | 'check', LoadResult[]> = { healthz: [], check: [] };
    for (let i = 0; i < rounds; i++) {
      runs.healthz.push(await load(`${ap.url}/healthz`, benchOptions));
      runs.check.push(await load(endpoint, call));
    }
    for (const [name, list] of Object.entries(runs))
      for (const r of list)
        if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
    const best = (list: LoadResult[]) => list.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
    const healthz = best(runs.healthz);
    const checks = best(runs.check);
    const throughput = checks.requestsPerSecond / healthz.requestsPerSecond;
    const p99 = checks.p99Ms / Math.max(healthz.p99Ms, 1);
    console.log(
      `governance check_governance (intent, approved and signed) over MCP vs /healthz: ${Math.round(checks.requestsPerSecond)} calls/s vs ${Math.round(healthz.requestsPerSecond)} req/s; ` +
        `throughput ratio ${throughput.toFixed(2)} (target >= ${targets.throughput}), p50 ${checks.p50Ms} ms vs ${healthz.p50Ms} ms, ` +
        `p99 ${checks.p99Ms} ms vs ${healthz.p99Ms} ms, p99 ratio ${p99.toFixed(2)} (target <= ${targets.p99}); ` +
        `${benchOptions.connections} connections, ${benchOptions.seconds}s x ${rounds} rounds, best each`,
    );
  } finally {
    await ap.stop();
  }
  listResolution();
}

/**
 * A property list of 100,000 registry properties (1,000 publishers' 100 each, named by tag),
 * resolved from an authorization index in this process: every property's staleness and
 * authorization read from the index, the identifiers collected. Target: 50 ms.
 */
function listResolution(): void {
  const index = new AuthorizationIndex();
  for (let i = 0; i < 1000; i++) indexPublisher(index, `p${i}.example`, 100);
  const list = {
    base_properties: Array.from({ length: 1000 }, (_, i) => ({
      selection_type: 'publisher_tags' as const,
      publisher_domain: `p${i}.example`,
      tags: ['premium', 'standard'],
    })),
  };
  const times: number[] = [];
  let count = 0;
  for (let run = 0; run < 11; run++) {
    const started = performance.now();
    count = identifiersOf(index, resolveList(index, list)).length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(
    `governance property list resolution: ${count.toLocaleString('en-US')} properties from the authorization index in ${times[5]!.toFixed(1)} ms (median of 11; min ${times[0]!.toFixed(1)} ms; target <= 50 ms)`,
  );
}
