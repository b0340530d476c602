import { publicTestCredential } from '../src/config.ts';
import { serveAp } from '../test/support/cli.ts';
import { freshKeyMark, load, type LoadOptions, type LoadResult } from './support/load.ts';

/**
 * `GET /api/public/discover-agent` probing the test deployment's sales agent on loopback (an
 * `ap serve` of its own, which the registry's fetch client is allowed to reach), beside `/healthz`
 * of the same registry, in alternating rounds: p50 and p99. A fresh probe (each call names the
 * agent with a query string never seen, so the minute-long cache misses: MCP initialize and
 * tools/list, the A2A card, get_ap_capabilities, about six requests to the agent) and a kept answer
 * (the same URL again).
 */
export async function discoverAgentBench(): Promise<void> {
  const agent = await serveAp(['--data-dir', 'memory://'], { AGENTS: 'true' });
  agent.discardLogs();
  try {
    const agentHost = new URL(agent.url).host;
    const registry = await serveAp(['--data-dir', 'memory://'], {
      AP_FETCH_ALLOW: agentHost,
      RATE_LIMIT_PROBES_PER_MINUTE: '1000000',
      RATE_LIMIT_PROBES_PER_MINUTE_PER_USER: '1000000',
    });
    registry.discardLogs();
    try {
      const options: LoadOptions = {
        seconds: Number(process.env.BENCH_SECONDS ?? 5),
        connections: Number(process.env.BENCH_PROBE_CONNECTIONS ?? 10),
      };
      const headers = { 'ap-agent-authorization': `Bearer ${publicTestCredential}` };
      const probe = (url: string) => `/api/public/discover-agent?url=${encodeURIComponent(url)}`;
      const fresh: LoadOptions = {
        ...options,
        freshKeys: true,
        requests: [{ method: 'GET', path: probe(`${agent.url}/sales/mcp?probe=${freshKeyMark}`), headers }],
      };
      const kept: LoadOptions = {
        ...options,
        requests: [{ method: 'GET', path: probe(`${agent.url}/sales/mcp`), headers }],
      };
      // One call by hand first: a refusal would otherwise only show as non-2xx counts.
      const first = await fetch(`${registry.url}${probe(`${agent.url}/sales/mcp`)}`, { headers });
      const answer = (await first.json()) as { protocols?: string[] };
      if (first.status !== 200 || answer.protocols?.join() !== 'mcp,a2a')
        throw new Error(`discover-agent answered ${first.status}: ${JSON.stringify(answer)}`);
      await load(registry.url, { ...fresh, seconds: 1 }); // warm-up
      const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
      const runs: Record<'healthz' | 'fresh' | 'kept', LoadResult[]> = { healthz: [], fresh: [], kept: [] };
      for (let i = 0; i < rounds; i++) {
        runs.healthz.push(await load(`${registry.url}/healthz`, options));
        runs.fresh.push(await load(registry.url, fresh));
        runs.kept.push(await load(registry.url, kept));
      }
      for (const [name, list] of Object.entries(runs))
        for (const r of list)
          if (r.errors > 0 || r.non2xx > 0)
            throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
      const best = (list: LoadResult[]) => list.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
      const healthz = best(runs.healthz);
      const side = (r: LoadResult) =>
        `p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ${Math.round(r.requestsPerSecond)} req/s vs /healthz p50 ${healthz.p50Ms} ms, p99 ${healthz.p99Ms} ms, ${Math.round(healthz.requestsPerSecond)} req/s; ${options.connections} connections, ${options.seconds}s x ${rounds} rounds, best each`;
      console.log(`discover-agent of the sales agent on loopback, a fresh probe each call: ${side(best(runs.fresh))}`);
      console.log(`discover-agent of the sales agent on loopback, the kept answer: ${side(best(runs.kept))}`);
    } finally {
      await registry.stop();
    }
  } finally {
    await agent.stop();
  }
}
