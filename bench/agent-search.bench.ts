import os from 'node:os';
import { loadMigrations, migrate } from '../src/db/migrate.ts';
import { untilLogged, type ServingAp } from '../test/support/cli.ts';
import { openSharedSchema } from '../test/support/shared-schema.ts';
import {
  AGENTS,
  buildAgentSearchWorld,
  COUNTRIES,
  PROPERTIES_PER_PUBLISHER,
  PUBLISHERS,
} from './support/agent-search-world.ts';
import { startBare } from './support/bare-process.ts';
import { cpuSecondsOf } from './support/process-cpu.ts';
import { benchOptions, load, type LoadResult } from './support/load.ts';
import { pacedLoad } from './support/paced-load.ts';

const TOKEN = 'bench-admin-key-agent-search-0123456789ab';
const auth = { authorization: `Bearer ${TOKEN}` };
const targets = { throughputRatio: 0.3, p99Ms: 5 };

/** The searches in rotation: single dimensions, ORs within one, ANDs across several, thresholds and pages of every size. */
function searches(): string[] {
  const out: string[] = [];
  const channels = ['display', 'ctv', 'dooh', 'podcast', 'display,ctv'];
  const types = ['website', 'mobile_app', 'ctv_app', 'website,mobile_app', 'dooh,podcast'];
  for (let i = 0; i < 20; i++) {
    const parts = [`channels=${channels[i % channels.length]}`];
    if (i % 2 === 0) parts.push(`markets=${COUNTRIES[i % COUNTRIES.length]},${COUNTRIES[(i + 3) % COUNTRIES.length]}`);
    if (i % 3 === 0) parts.push(`property_types=${types[i % types.length]}`);
    if (i % 4 === 0) parts.push(`tags=tag-${i},tag-${i + 1},tag-${i + 2}`);
    if (i % 5 === 0) parts.push('min_properties=100');
    parts.push(`limit=${[10, 50, 100, 200][i % 4]}`);
    out.push(`/api/registry/agents/search?${parts.join('&')}`);
  }
  return out;
}

/**
 * Agent search on PostgreSQL over 10,000 agents and a million properties, answered from the
 * process's in-memory inventory profiles: max throughput of `ap serve` against a bare Node
 * server answering a median-sized search answer (autocannon in alternating rounds, its client in
 * a process of its own), each one's CPU per request, then p99 latency under an open-loop load at
 * half the ap's max.
 */
export async function agentSearchBench(): Promise<void> {
  console.log(`agent search: ${os.availableParallelism()} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} at start`);
  const shared = await openSharedSchema();
  try {
    await migrate(shared.db, await loadMigrations());
    const seeding = performance.now();
    await buildAgentSearchWorld(shared.db);
    const seeded = performance.now();
    const ap = await shared.serve({
      AP_ADMIN_KEY: TOKEN,
      ...(process.env.AP_NODE_OPTIONS ? { NODE_OPTIONS: process.env.AP_NODE_OPTIONS } : {}),
    });
    await untilLogged([ap], () => ap.logs.some((line) => line.includes('agent inventory profiles derived')));
    const ready = await fetch(`${ap.url}/readyz`);
    if (ready.status !== 200)
      throw new Error(`/readyz answered ${ready.status} once the profiles were derived: ${await ready.text()}`);
    ap.discardLogs();
    console.log(
      `agent search: ${AGENTS.toLocaleString('en-US')} agents, ${(PUBLISHERS * PROPERTIES_PER_PUBLISHER).toLocaleString('en-US')} properties of ${PUBLISHERS.toLocaleString('en-US')} publishers (seeded in ${((seeded - seeding) / 1000).toFixed(0)} s; the index and profiles ready ${((performance.now() - seeded) / 1000).toFixed(0)} s after)`,
    );
    await throughputAndLatency(ap);
  } finally {
    await shared.close();
  }
}

async function throughputAndLatency(ap: ServingAp): Promise<void> {
  const paths = searches();
  const bodies: string[] = [];
  for (const path of paths) {
    const res = await fetch(`${ap.url}${path}`, { headers: auth });
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
    bodies.push(await res.text());
  }
  const counts = bodies.map((b) => (JSON.parse(b) as { results: unknown[] }).results.length);
  const median = [...bodies].sort((a, b) => a.length - b.length)[Math.floor(bodies.length / 2)]!;
  const bare = await startBare(median);
  try {
    const servers = { ap: { url: ap.url, pid: ap.process.pid! }, bare };
    const options = {
      ...benchOptions,
      requests: paths.map((path) => ({ method: 'GET' as const, path, headers: auth })),
    };
    for (const server of Object.values(servers)) await load(server.url, { ...options, seconds: 1 }); // warm-up
    const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
    const runs: Record<keyof typeof servers, Array<LoadResult & { cpuMicros: number }>> = { ap: [], bare: [] };
    for (let i = 0; i < rounds; i++) {
      for (const which of ['bare', 'ap'] as const) {
        const { url, pid } = servers[which];
        const cpuBefore = cpuSecondsOf(pid);
        const result = await load(url, options);
        const cpuMicros = ((cpuSecondsOf(pid) - cpuBefore) * 1e6) / (result.requestsPerSecond * benchOptions.seconds);
        if (result.errors > 0 || result.non2xx > 0)
          throw new Error(`agent search on ${which}: ${result.errors} errors, ${result.non2xx} non-2xx responses`);
        runs[which].push({ ...result, cpuMicros });
      }
    }
    const best = (list: Array<LoadResult & { cpuMicros: number }>) =>
      list.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
    const [apBest, bareBest] = [best(runs.ap), best(runs.bare)];
    const rate = Math.round(apBest.requestsPerSecond / 2);
    const paced = { rate, seconds: benchOptions.seconds, connections: benchOptions.connections, headers: auth };
    for (const url of [bare.url, ap.url]) await pacedLoad(url, paths, { ...paced, seconds: 1 }); // warm-up
    const barePaced = await pacedLoad(bare.url, paths, paced);
    const apPaced = await pacedLoad(ap.url, paths, paced);
    for (const r of [apPaced, barePaced])
      if (r.errors > 0 || r.non2xx > 0)
        throw new Error(`agent search at half load: ${r.errors} errors, ${r.non2xx} non-2xx responses`);

    const n = (x: number) => Math.round(x).toLocaleString('en-US');
    const ratio = apBest.requestsPerSecond / bareBest.requestsPerSecond;
    console.log(
      `agent search: ${paths.length} searches in rotation (${Math.min(...counts)}–${Math.max(...counts)} results a page); bare node answers a median-sized ap answer (${median.length} bytes)`,
    );
    console.log(
      `agent search throughput ratio ap/bare: ${ratio.toFixed(2)} (ap ${n(apBest.requestsPerSecond)} req/s, bare ${n(bareBest.requestsPerSecond)} req/s; server CPU per request ap ${apBest.cpuMicros.toFixed(1)} µs, bare ${bareBest.cpuMicros.toFixed(1)} µs; ${benchOptions.connections} connections, ${benchOptions.seconds}s x ${rounds} rounds, best each); target >= ${targets.throughputRatio}: ${ratio >= targets.throughputRatio ? 'met' : 'NOT met'}`,
    );
    console.log(
      `agent search p99 at half the ap's max load (${n(rate)} req/s open loop, sent ${n(apPaced.sentPerSecond)}): ap ${apPaced.p99Ms.toFixed(2)} ms, bare ${barePaced.p99Ms.toFixed(2)} ms (p50 ap ${apPaced.p50Ms.toFixed(2)}, bare ${barePaced.p50Ms.toFixed(2)}; client lag p99 ${Math.max(apPaced.lagP99Ms, barePaced.lagP99Ms).toFixed(2)}); target ap p99 <= ${targets.p99Ms} ms: ${apPaced.p99Ms <= targets.p99Ms ? 'met' : 'NOT met'}`,
    );
  } finally {
    await bare.stop();
  }
}
