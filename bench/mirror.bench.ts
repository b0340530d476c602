import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Database } from '../src/db/database.ts';
import { loadMigrations, migrate } from '../src/db/migrate.ts';
import { startAp, untilLogged, type RunningAp, type ServingAp } from '../test/support/cli.ts';
import { openSharedSchema } from '../test/support/shared-schema.ts';
import { startBare } from './support/bare-process.ts';
import { changeToVisible, percentile } from './support/change-to-visible.ts';
import { benchOptions, load, type LoadResult } from './support/load.ts';
import { buildLiveWorld, buildLookupWorld, checkPaths } from './support/lookup-world.ts';
import { pacedLoad } from './support/paced-load.ts';
import { rssBytesOf } from './support/process-rss.ts';
import { PUBLISHERS, PROPERTIES_PER_PUBLISHER } from './support/scale-world.ts';

const LIVE_PUBLISHERS = 20;
const key = 'bench-mirror-admin-key-0123456789abcdef';

/**
 * `ap mirror` beside an `ap serve` on PostgreSQL (the lookups bench's world):
 * 1. the mirror's authorization check against a bare Node server answering a median-sized answer,
 *    max throughput in alternating rounds, then p99 at half the mirror's max (open loop);
 * 2. change-to-visible: grants and revocations committed upstream one after another, each timed
 *    until the mirror answers the new status;
 * 3. bootstrap at scale: a mirror of a 1M-property registry (scale-upstream.ts, generated), the
 *    time from its start to its state loaded, and its resident memory then.
 * BENCH_MIRROR_PARTS (comma-separated: check, change, scale) runs only those parts.
 */
export async function mirrorBench(): Promise<void> {
  const parts = new Set((process.env.BENCH_MIRROR_PARTS ?? 'check,change,scale').split(',').map((p) => p.trim()));
  if (parts.has('check') || parts.has('change')) {
    const shared = await openSharedSchema();
    try {
      await migrate(shared.db, await loadMigrations());
      await buildLookupWorld(shared.db);
      await buildLiveWorld(shared.db, LIVE_PUBLISHERS);
      const upstream = await shared.serve({ AP_ADMIN_KEY: key });
      await untilLogged([upstream], () => upstream.logs.some((l) => l.includes('authorization index caught up')));
      const mirror = await startMirror(upstream);
      try {
        if (parts.has('check')) await checkThroughput(mirror.url);
        if (parts.has('change')) await changeToVisibleOnMirror(shared.db, mirror.url);
      } finally {
        await mirror.ap.stop();
      }
    } finally {
      await shared.close();
    }
  }
  if (parts.has('scale')) await bootstrapAtScale();
}

/** Starts `ap mirror` of `upstream` (or of any URL) and resolves once its state is loaded. */
async function startMirror(
  upstream: Pick<ServingAp, 'url'>,
  env: Record<string, string> = {},
): Promise<{ ap: RunningAp; url: string; startedAt: number; loadedAt: number; heapMb: number }> {
  const startedAt = performance.now();
  const ap = startAp(['mirror', '--from', upstream.url, '--token', key, '--port', '0'], { LOG_LEVEL: 'info', ...env });
  const serving = await ap.line('stdout', /ap mirror serving at/);
  const url = /serving at (\S+?)"/.exec(serving)![1]!;
  const bootstrapped = await ap.line('stdout', /mirror bootstrapped/);
  const heapMb = /"heapMb":(\d+)/.exec(bootstrapped)?.[1];
  const loadedAt = performance.now();
  // Ready once its stream has said it is caught up too (at once, after the snapshot's last page).
  for (;;) {
    const res = await fetch(`${url}/readyz`);
    await res.arrayBuffer();
    if (res.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { ap, url, startedAt, loadedAt, heapMb: Number(heapMb) };
}

async function checkThroughput(mirrorUrl: string): Promise<void> {
  const paths = checkPaths();
  const bodies: string[] = [];
  for (const path of paths) {
    const res = await fetch(`${mirrorUrl}${path}`);
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
    bodies.push(await res.text());
  }
  const median = [...bodies].sort((a, b) => a.length - b.length)[Math.floor(bodies.length / 2)]!;
  const bare = await startBare(median);
  try {
    const options = { ...benchOptions, requests: paths.map((path) => ({ method: 'GET' as const, path })) };
    for (const url of [bare.url, mirrorUrl]) await load(url, { ...options, seconds: 1 }); // warm-up
    const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
    const runs = { bare: [] as LoadResult[], mirror: [] as LoadResult[] };
    for (let i = 0; i < rounds; i++) {
      for (const [which, url] of [
        ['bare', bare.url],
        ['mirror', mirrorUrl],
      ] as const) {
        const result = await load(url, options);
        if (result.errors > 0 || result.non2xx > 0)
          throw new Error(`check on ${which}: ${result.errors} errors, ${result.non2xx} non-2xx responses`);
        runs[which].push(result);
      }
    }
    const best = (list: LoadResult[]) => list.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
    const [mirrorBest, bareBest] = [best(runs.mirror), best(runs.bare)];
    const rate = Math.round(mirrorBest.requestsPerSecond / 2);
    const paced = { rate, seconds: benchOptions.seconds, connections: benchOptions.connections };
    for (const url of [bare.url, mirrorUrl]) await pacedLoad(url, paths, { ...paced, seconds: 1 }); // warm-up
    const barePaced = await pacedLoad(bare.url, paths, paced);
    const mirrorPaced = await pacedLoad(mirrorUrl, paths, paced);
    const n = (x: number) => Math.round(x).toLocaleString('en-US');
    const ms = (x: number) => x.toFixed(2);
    console.log(
      `mirror validate/property-authorization throughput ratio mirror/bare: ${(mirrorBest.requestsPerSecond / bareBest.requestsPerSecond).toFixed(2)} (mirror ${n(mirrorBest.requestsPerSecond)} req/s, bare ${n(bareBest.requestsPerSecond)} req/s answering a median-sized answer of ${median.length} bytes; ${paths.length} checks in rotation, ${benchOptions.connections} connections, ${benchOptions.seconds}s x ${rounds} rounds, best each; target >= 0.85)`,
    );
    console.log(
      `mirror validate/property-authorization p99 at half the mirror's max (${n(rate)} req/s open loop): mirror ${ms(mirrorPaced.p99Ms)} ms, bare ${ms(barePaced.p99Ms)} ms (p50 mirror ${ms(mirrorPaced.p50Ms)}, bare ${ms(barePaced.p50Ms)})`,
    );
  } finally {
    await bare.stop();
  }
}

async function changeToVisibleOnMirror(db: Database, mirrorUrl: string): Promise<void> {
  const changes = Number(process.env.BENCH_MIRROR_CHANGES ?? 200);
  const { latencies } = await changeToVisible(db, mirrorUrl, {
    changes,
    publishers: LIVE_PUBLISHERS,
    where: 'the mirror',
  });
  const at = (q: number) => percentile(latencies, q).toFixed(1);
  console.log(
    `mirror change-to-visible: p50 ${at(50)} ms, p99 ${at(99)} ms over ${changes} grant/revoke commits upstream, from commit to the mirror's check answering the new status (target p99 <= 1000 ms)`,
  );
}

async function bootstrapAtScale(): Promise<void> {
  const script = fileURLToPath(new URL('./support/scale-upstream.ts', import.meta.url));
  const upstream = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: upstream.stdout }), 'line')) as [string];
  const url = line.replace('listening at ', '');
  try {
    const mirror = await startMirror({ url });
    try {
      const rss = rssBytesOf(mirror.ap.process.pid!);
      // The entries' resolutions were loaded too: one answers as the stand-in upstream described it.
      const entry = await fetch(`${mirror.url}/api/properties/resolve?domain=p${PUBLISHERS - 1}.example`);
      const resolved = (await entry.json()) as { properties?: unknown[] };
      if (entry.status !== 200 || resolved.properties?.length !== PROPERTIES_PER_PUBLISHER)
        throw new Error(`the mirror did not resolve the last publisher's entry: HTTP ${entry.status}`);
      console.log(
        `mirror bootstrap of a ${(PUBLISHERS * PROPERTIES_PER_PUBLISHER).toLocaleString('en-US')}-property registry (${PUBLISHERS.toLocaleString('en-US')} publishers, 11 grants each, and each publisher's entry as resolve answers it; snapshot pages generated by a stand-in upstream): ${((mirror.loadedAt - mirror.startedAt) / 1000).toFixed(1)} s from start to state loaded (target <= 60 s), mirror RSS ${(rss / 1024 ** 3).toFixed(2)} GB (target <= 2 GB; JS heap in use when loaded ${(mirror.heapMb / 1024).toFixed(2)} GB)`,
      );
    } finally {
      await mirror.ap.stop();
    }
  } finally {
    upstream.kill('SIGTERM');
    await once(upstream, 'exit');
  }
}
