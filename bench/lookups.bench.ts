import { spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Database } from '../src/db/database.ts';
import { loadMigrations, migrate } from '../src/db/migrate.ts';
import { untilLogged, type ServingAp } from '../test/support/cli.ts';
import { openSharedSchema } from '../test/support/shared-schema.ts';
import { startBare } from './support/bare-process.ts';
import { changeToVisible, percentile } from './support/change-to-visible.ts';
import { cpuSecondsOf } from './support/process-cpu.ts';
import { benchOptions, load, type LoadResult } from './support/load.ts';
import { buildLiveWorld, buildLookupWorld, checkPaths, domainPaths, PUBLISHERS } from './support/lookup-world.ts';
import { pacedLoad } from './support/paced-load.ts';

const LIVE_PUBLISHERS = 20;

/**
 * The lookups on PostgreSQL, answered from each process's in-memory authorization index:
 * 1. `validate/property-authorization` and `lookup/domain` on `ap serve` over a world of a few
 *    hundred publishers, against a bare Node server answering a constant (a median-sized answer of
 *    the ap's): max throughput with autocannon in alternating rounds (the ap as deployed, keeping
 *    answers until the graph changes, and one computing every answer), each server's CPU per
 *    request, then p99 latency under an open-loop load at half the ap's max. The load comes from a
 *    process of its own. A control (the bare server spinning a fixed time per request) shows what
 *    ratio this machine allows any server that works per request: here an answer written to a
 *    client that went idle also pays for waking it, which a server as fast as its client avoids;
 * 2. the index alone at 1M properties and 10M agent-property edges (a child process of its own);
 * 3. change-to-visible: grants and revocations committed one after another, each timed until a
 *    second `ap serve` on the same database answers the new status.
 * BENCH_LOOKUP_PARTS (comma-separated: check, domain, change, scale) runs only those parts, e.g.
 * `BENCH_LOOKUP_PARTS=check npm run bench -- lookups` for the per-impression check alone.
 */
export async function lookupsBench(): Promise<void> {
  const parts = new Set(
    (process.env.BENCH_LOOKUP_PARTS ?? 'check,domain,change,scale').split(',').map((p) => p.trim()),
  );
  for (const part of parts)
    if (!['check', 'domain', 'change', 'scale'].includes(part))
      throw new Error(`BENCH_LOOKUP_PARTS: unknown part ${part}; known: check, domain, change, scale`);
  console.log(
    `lookups: ${os.availableParallelism()} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} at start (other processes on the machine slow both sides alike)`,
  );
  const shared = await openSharedSchema();
  try {
    await migrate(shared.db, await loadMigrations());
    await buildLookupWorld(shared.db);
    await buildLiveWorld(shared.db, LIVE_PUBLISHERS);
    const first = await ready(await shared.serve());
    const computing = await ready(await shared.serve({ LOOKUP_CACHE_ENTRIES: '0' }));
    if (parts.has('check'))
      await throughputAndLatency('validate/property-authorization', first, computing, checkPaths(), 0.6, checkMix);
    if (parts.has('domain'))
      await throughputAndLatency('lookup/domain', first, computing, domainPaths(), 0.5, domainMix);
    await computing.stop();
    if (parts.has('change')) {
      const second = await ready(await shared.serve());
      await changeToVisibleOnSecond(shared.db, second.url);
    }
  } finally {
    await shared.close();
  }
  if (parts.has('scale')) await indexAtScale();
  console.log(`lookups: load average ${os.loadavg()[0]!.toFixed(1)} at end`);
}

/** Resolves once the process says its index caught up with the feed and `/readyz` agrees. */
async function ready(ap: ServingAp): Promise<ServingAp> {
  await untilLogged([ap], () => ap.logs.some((line) => line.includes('authorization index caught up with the feed')));
  const res = await fetch(`${ap.url}/readyz`);
  if (res.status !== 200)
    throw new Error(`/readyz answered ${res.status} after the index caught up: ${await res.text()}`);
  ap.discardLogs();
  return ap;
}

/** A control's synthetic work per request: about what the ap's own handling costs it in CPU. */
const CONTROL_BUSY_MICROS = 20;

/**
 * `ap` keeps its answers until the graph changes (as deployed); `computing` keeps none
 * (LOOKUP_CACHE_ENTRIES=0), so each of its answers is computed from the index and serialized.
 */
async function throughputAndLatency(
  name: string,
  ap: ServingAp,
  computing: ServingAp,
  paths: string[],
  target: number,
  mix: (bodies: unknown[]) => string,
): Promise<void> {
  const bodies: string[] = [];
  for (const path of paths) {
    const res = await fetch(`${ap.url}${path}`);
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
    bodies.push(await res.text());
  }
  const median = [...bodies].sort((a, b) => a.length - b.length)[Math.floor(bodies.length / 2)]!;
  const bare = await startBare(median);
  const control = await startBare(median, CONTROL_BUSY_MICROS);
  try {
    const servers = {
      ap: { url: ap.url, pid: ap.process.pid! },
      computing: { url: computing.url, pid: computing.process.pid! },
      bare,
      control,
    };
    const options = { ...benchOptions, requests: paths.map((path) => ({ method: 'GET' as const, path })) };
    for (const server of Object.values(servers)) await load(server.url, { ...options, seconds: 1 }); // warm-up
    const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
    const runs: Record<keyof typeof servers, Array<LoadResult & { cpuMicros: number }>> = {
      ap: [],
      computing: [],
      bare: [],
      control: [],
    };
    for (let i = 0; i < rounds; i++) {
      for (const which of ['bare', 'ap', 'computing', 'control'] as const) {
        const { url, pid } = servers[which];
        const cpuBefore = cpuSecondsOf(pid);
        const result = await load(url, options);
        const cpuMicros = ((cpuSecondsOf(pid) - cpuBefore) * 1e6) / (result.requestsPerSecond * benchOptions.seconds);
        if (result.errors > 0 || result.non2xx > 0)
          throw new Error(`${name} on ${which}: ${result.errors} errors, ${result.non2xx} non-2xx responses`);
        runs[which].push({ ...result, cpuMicros });
      }
    }
    // The best round of each: what a server did when the machine let it.
    const best = (list: Array<LoadResult & { cpuMicros: number }>) =>
      list.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
    const [apBest, computingBest, bareBest, controlBest] = [
      best(runs.ap),
      best(runs.computing),
      best(runs.bare),
      best(runs.control),
    ];

    const rate = Math.round(apBest.requestsPerSecond / 2);
    const paced = { rate, seconds: benchOptions.seconds, connections: benchOptions.connections };
    for (const url of [bare.url, ap.url]) await pacedLoad(url, paths, { ...paced, seconds: 1 }); // warm-up
    const barePaced = await pacedLoad(bare.url, paths, paced);
    const apPaced = await pacedLoad(ap.url, paths, paced);
    for (const r of [apPaced, barePaced])
      if (r.errors > 0 || r.non2xx > 0)
        throw new Error(`${name} at half load: ${r.errors} errors, ${r.non2xx} non-2xx responses`);

    const n = (x: number) => Math.round(x).toLocaleString('en-US');
    const ms = (x: number) => x.toFixed(2);
    const us = (x: number) => x.toFixed(1);
    console.log(
      `lookups ${name}: ${paths.length} requests in rotation (${mix(bodies.map((b) => JSON.parse(b) as unknown))}); bare node answers a median-sized ap answer (${median.length} bytes)`,
    );
    console.log(
      `lookups ${name} throughput ratio ap/bare: ${(apBest.requestsPerSecond / bareBest.requestsPerSecond).toFixed(2)} (ap ${n(apBest.requestsPerSecond)} req/s, bare ${n(bareBest.requestsPerSecond)} req/s; ${benchOptions.connections} connections, ${benchOptions.seconds}s x ${rounds} rounds, best each, client in its own process; target >= ${target})`,
    );
    console.log(
      `lookups ${name} throughput ratio ap/bare with every answer computed (LOOKUP_CACHE_ENTRIES=0): ${(computingBest.requestsPerSecond / bareBest.requestsPerSecond).toFixed(2)} (${n(computingBest.requestsPerSecond)} req/s, ${us(computingBest.cpuMicros)} µs CPU per request)`,
    );
    console.log(
      `lookups ${name} server CPU per request: ap ${us(apBest.cpuMicros)} µs, bare ${us(bareBest.cpuMicros)} µs; control: bare spinning ${CONTROL_BUSY_MICROS} µs per request reaches ${(controlBest.requestsPerSecond / bareBest.requestsPerSecond).toFixed(2)} of bare (${n(controlBest.requestsPerSecond)} req/s, ${us(controlBest.cpuMicros)} µs CPU per request): the ratio this machine allows a server doing that much work`,
    );
    console.log(
      `lookups ${name} p99 at half the ap's max load (${n(rate)} req/s open loop, sent ${n(apPaced.sentPerSecond)}), from when each request fell due: ap ${ms(apPaced.p99Ms)} ms, bare ${ms(barePaced.p99Ms)} ms (p50 ap ${ms(apPaced.p50Ms)}, bare ${ms(barePaced.p50Ms)}; max ap ${ms(apPaced.maxMs)}, bare ${ms(barePaced.maxMs)}; client lag p99 ${ms(Math.max(apPaced.lagP99Ms, barePaced.lagP99Ms))}; target ap p99 <= 2 ms)`,
    );
  } finally {
    await bare.stop();
    await control.stop();
  }
}

function checkMix(bodies: unknown[]): string {
  const count = new Map<string, number>();
  for (const body of bodies) {
    const status = (body as { result: { status: string } }).result.status;
    count.set(status, (count.get(status) ?? 0) + 1);
  }
  return [...count].map(([status, c]) => `${Math.round((c / bodies.length) * 100)}% ${status}`).join(', ');
}

function domainMix(bodies: unknown[]): string {
  const known = bodies.filter((b) => (b as { publisher: { status: string } }).publisher.status !== 'unknown');
  const agents = known.reduce((sum: number, b) => sum + (b as { agents: unknown[] }).agents.length, 0);
  return `${known.length} of ${PUBLISHERS} publishers known with ${(agents / known.length).toFixed(1)} authorizations each, ${bodies.length - known.length} unknown domains`;
}

async function changeToVisibleOnSecond(db: Database, secondUrl: string): Promise<void> {
  const changes = Number(process.env.BENCH_LOOKUP_CHANGES ?? 200);
  const { latencies, polls } = await changeToVisible(db, secondUrl, {
    changes,
    publishers: LIVE_PUBLISHERS,
    where: 'the second instance',
  });
  const ms = (x: number) => x.toFixed(1);
  console.log(
    `lookups change-to-visible on a second instance: p50 ${ms(percentile(latencies, 50))} ms, p99 ${ms(percentile(latencies, 99))} ms, max ${ms(Math.max(...latencies))} ms over ${changes} grant/revoke commits, from commit to the second instance's check answering the new status (${(polls / changes).toFixed(1)} polls each; target p99 <= 1000 ms)`,
  );
}

async function indexAtScale(): Promise<void> {
  const script = fileURLToPath(new URL('./support/index-scale-child.ts', import.meta.url));
  const child = spawn(process.execPath, ['--max-old-space-size=4096', '--expose-gc', script], { stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`the index-at-scale child exited with ${code}`);
}
