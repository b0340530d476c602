import { spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import type { Database } from '../src/db/database.ts';
import { loadMigrations, migrate } from '../src/db/migrate.ts';
import { publishAdagents } from '../test/support/authorization-world.ts';
import { untilLogged, type ServingAp } from '../test/support/cli.ts';
import { openSharedSchema } from '../test/support/shared-schema.ts';
import { startBare } from './support/bare-process.ts';
import { benchOptions, load, type LoadResult } from './support/load.ts';
import { buildLiveWorld, buildLookupWorld, checkPaths, domainPaths, liveAdagents, liveCheckPath, livePublisher, PUBLISHERS } from './support/lookup-world.ts';
import { pacedLoad } from './support/paced-load.ts';

const LIVE_PUBLISHERS = 20;

/**
 * The lookups on PostgreSQL, answered from each process's in-memory authorization index:
 * 1. `validate/property-authorization` and `lookup/domain` on `ap serve` over a world of a few
 *    hundred publishers, against a bare Node server answering a constant (a median-sized answer of
 *    the ap's): max throughput with autocannon in alternating rounds, then p99 latency under an
 *    open-loop load at half the ap's max;
 * 2. the index alone at 1M properties and 10M agent-property edges (a child process of its own);
 * 3. change-to-visible: grants and revocations committed one after another, each timed until a
 *    second `ap serve` on the same database answers the new status.
 */
export async function lookupsBench(): Promise<void> {
  console.log(`lookups: ${os.availableParallelism()} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} at start (other processes on the machine slow both sides alike)`);
  const shared = await openSharedSchema();
  try {
    await migrate(shared.db, await loadMigrations());
    await buildLookupWorld(shared.db);
    await buildLiveWorld(shared.db, LIVE_PUBLISHERS);
    const first = await ready(await shared.serve());
    await throughputAndLatency('validate/property-authorization', first.url, checkPaths(), 0.6, checkMix);
    await throughputAndLatency('lookup/domain', first.url, domainPaths(), 0.5, domainMix);
    const second = await ready(await shared.serve());
    await changeToVisible(shared.db, second.url);
  } finally {
    await shared.close();
  }
  await indexAtScale();
  console.log(`lookups: load average ${os.loadavg()[0]!.toFixed(1)} at end`);
}

/** Resolves once the process says its index caught up with the feed and `/readyz` agrees. */
async function ready(ap: ServingAp): Promise<ServingAp> {
  await untilLogged([ap], () => ap.logs.some((line) => line.includes('authorization index caught up with the feed')));
  const res = await fetch(`${ap.url}/readyz`);
  if (res.status !== 200) throw new Error(`/readyz answered ${res.status} after the index caught up: ${await res.text()}`);
  return ap;
}

async function throughputAndLatency(name: string, apUrl: string, paths: string[], target: number, mix: (bodies: unknown[]) => string): Promise<void> {
  const bodies: string[] = [];
  for (const path of paths) {
    const res = await fetch(`${apUrl}${path}`);
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
    bodies.push(await res.text());
  }
  const median = [...bodies].sort((a, b) => a.length - b.length)[Math.floor(bodies.length / 2)]!;
  const bare = await startBare(median);
  try {
    const options = { ...benchOptions, requests: paths.map((path) => ({ method: 'GET' as const, path })) };
    await load(apUrl, { ...options, seconds: 1 }); // warm-up
    await load(bare.url, { ...options, seconds: 1 });
    const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
    const runs: Record<'ap' | 'bare', LoadResult[]> = { ap: [], bare: [] };
    for (let i = 0; i < rounds; i++) {
      runs.bare.push(await load(bare.url, options));
      runs.ap.push(await load(apUrl, options));
    }
    for (const r of [...runs.ap, ...runs.bare]) if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
    const best = (list: LoadResult[]) => Math.max(...list.map((r) => r.requestsPerSecond));
    const ap = best(runs.ap);
    const baseline = best(runs.bare);

    const rate = Math.round(ap / 2);
    const paced = { rate, seconds: benchOptions.seconds, connections: benchOptions.connections };
    // The paced client's own code is cold until it has run: its first second stalls for tens of ms.
    for (const url of [bare.url, apUrl]) await pacedLoad(url, paths, { ...paced, seconds: 1 });
    const barePaced = await pacedLoad(bare.url, paths, paced);
    const apPaced = await pacedLoad(apUrl, paths, paced);
    for (const r of [apPaced, barePaced]) if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name} at half load: ${r.errors} errors, ${r.non2xx} non-2xx responses`);

    const n = (x: number) => Math.round(x).toLocaleString('en-US');
    const ms = (x: number) => x.toFixed(2);
    console.log(`lookups ${name}: ${paths.length} requests in rotation (${mix(bodies.map((b) => JSON.parse(b) as unknown))}); bare node answers a median-sized ap answer (${median.length} bytes)`);
    console.log(
      `lookups ${name} throughput ratio ap/bare: ${(ap / baseline).toFixed(2)} (ap ${n(ap)} req/s, bare ${n(baseline)} req/s; ${benchOptions.connections} connections, ${benchOptions.seconds}s x ${rounds} rounds, best each; target >= ${target})`,
    );
    console.log(
      `lookups ${name} p99 at half the ap's max load (${n(rate)} req/s open loop, sent ${n(apPaced.sentPerSecond)}): ap ${ms(apPaced.p99Ms)} ms, bare ${ms(barePaced.p99Ms)} ms (p50 ap ${ms(apPaced.p50Ms)}, bare ${ms(barePaced.p50Ms)}; max ap ${ms(apPaced.maxMs)}, bare ${ms(barePaced.maxMs)}; client lag p99 ${ms(Math.max(apPaced.lagP99Ms, barePaced.lagP99Ms))}; target ap p99 <= 2 ms)`,
    );
  } finally {
    await bare.stop();
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

/**
 * Each change is one crawler-style commit (a publisher's file granting or dropping the agent);
 * from the moment the commit returns, the second instance is asked back to back until it answers
 * the new status.
 */
async function changeToVisible(db: Database, secondUrl: string): Promise<void> {
  const changes = Number(process.env.BENCH_LOOKUP_CHANGES ?? 200);
  const pool = new Pool(secondUrl, { connections: 1 });
  const status = async (k: number) => {
    const res = await pool.request({ path: liveCheckPath(k), method: 'GET' });
    const body = (await res.body.json()) as { result: { status: string } };
    return body.result.status;
  };
  try {
    const granted = Array.from({ length: LIVE_PUBLISHERS }, () => false);
    for (let k = 0; k < LIVE_PUBLISHERS; k++) if ((await status(k)) !== 'unauthorized') throw new Error(`${livePublisher(k)} should start unauthorized`);
    const latencies: number[] = [];
    let polls = 0;
    for (let change = 0; change < changes; change++) {
      const k = change % LIVE_PUBLISHERS;
      granted[k] = !granted[k];
      const expected = granted[k] ? 'authorized' : 'unauthorized';
      await publishAdagents(db, livePublisher(k), liveAdagents(k, granted[k]));
      const committed = performance.now();
      for (;;) {
        polls++;
        if ((await status(k)) === expected) break;
        if (performance.now() - committed > 30_000) throw new Error(`change ${change} (${expected} for ${livePublisher(k)}) not visible on the second instance after 30 s`);
      }
      latencies.push(performance.now() - committed);
    }
    const ms = (x: number) => x.toFixed(1);
    console.log(
      `lookups change-to-visible on a second instance: p50 ${ms(percentile(latencies, 50))} ms, p99 ${ms(percentile(latencies, 99))} ms, max ${ms(Math.max(...latencies))} ms over ${changes} grant/revoke commits, from commit to the second instance's check answering the new status (${(polls / changes).toFixed(1)} polls each; target p99 <= 1000 ms)`,
    );
  } finally {
    await pool.close();
  }
}

async function indexAtScale(): Promise<void> {
  const script = fileURLToPath(new URL('./support/index-scale-child.ts', import.meta.url));
  const child = spawn(process.execPath, ['--max-old-space-size=4096', '--expose-gc', script], { stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`the index-at-scale child exited with ${code}`);
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((q / 100) * sorted.length))]!;
}
