import { serveAp } from '../test/support/cli.ts';
import { startBare } from './support/bare-process.ts';
import { benchOptions, load, type LoadResult } from './support/load.ts';

/**
 * `/healthz` on `ap serve` (all production hooks on: request ids, metrics, logging at info) against
 * a bare Node server returning the same body. Both run as separate processes and are loaded in
 * alternating rounds, so drift on the machine affects both alike.
 */
export async function healthzBench(): Promise<void> {
  const ap = await serveAp(['--data-dir', 'memory://']);
  const bare = await startBare();
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
  const results: Record<'ap' | 'bare', LoadResult[]> = { ap: [], bare: [] };
  try {
    await load(`${ap.url}/healthz`, { ...benchOptions, seconds: 1 }); // warm-up
    await load(`${bare.url}/healthz`, { ...benchOptions, seconds: 1 });
    for (let i = 0; i < rounds; i++) {
      results.bare.push(await load(`${bare.url}/healthz`, benchOptions));
      results.ap.push(await load(`${ap.url}/healthz`, benchOptions));
    }
  } finally {
    await Promise.all([ap.stop(), bare.stop()]);
  }
  const best = (runs: LoadResult[]) => runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  const apBest = best(results.ap);
  const bareBest = best(results.bare);
  for (const [name, r] of [
    ['ap serve', apBest],
    ['bare node', bareBest],
  ] as const) {
    if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
  }
  console.log(
    `healthz: ${benchOptions.connections} connections, ${benchOptions.seconds}s x ${rounds} rounds, best round each`,
  );
  console.table({
    'ap serve': row(apBest),
    'bare node': row(bareBest),
  });
  console.log(
    `healthz throughput ratio ap/bare: ${(apBest.requestsPerSecond / bareBest.requestsPerSecond).toFixed(2)}`,
  );
  console.log(`healthz p99 latency ratio ap/bare: ${(apBest.p99Ms / Math.max(bareBest.p99Ms, 1)).toFixed(2)}`);
}

function row(r: LoadResult) {
  return { 'req/s': Math.round(r.requestsPerSecond), 'p50 ms': r.p50Ms, 'p99 ms': r.p99Ms };
}
