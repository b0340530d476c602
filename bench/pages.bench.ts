import { randomBytes } from 'node:crypto';
import { serveAp } from '../test/support/cli.ts';
import { load, type LoadResult } from './support/load.ts';

/** The target: a page of 50 rows answered in at most this many milliseconds of server time. */
const targets = { ms: 20 };
const rows = 50;

/**
 * The registry's pages on `ap serve` (embedded PGlite, the demo world and 60 more brands saved
 * through the API): `/brands`, a page of 50 rows read through the API in-process and rendered,
 * against `/healthz`, one connection at a time so each latency is one request's server time and
 * the loopback.
 */
export async function pagesBench(): Promise<void> {
  const adminKey = randomBytes(24).toString('hex');
  const ap = await serveAp(['--data-dir', 'memory://'], { AP_DEMO: 'true', AP_ADMIN_KEY: adminKey });
  ap.discardLogs();
  try {
    for (let i = 0; i < 60; i++) {
      const res = await fetch(`${ap.url}/api/brands/save`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
        body: JSON.stringify({ domain: `bench-brand-${i}.example`, brand_name: `Bench brand ${i}` }),
      });
      if (res.status !== 201) throw new Error(`saving a brand answered ${res.status}: ${await res.text()}`);
    }
    const page = await fetch(`${ap.url}/brands`);
    const shown = ((await page.text()).match(/<tr>/g) ?? []).length - 1;
    if (page.status !== 200 || shown !== rows)
      throw new Error(`/brands showed ${shown} rows (${page.status}), not ${rows}`);
    const options = { seconds: 5, connections: 1 };
    await load(`${ap.url}/brands`, { ...options, seconds: 1 }); // warm-up
    const rounds = Number(process.env['BENCH_ROUNDS'] ?? 2);
    const runs: Record<'healthz' | 'page', LoadResult[]> = { healthz: [], page: [] };
    for (let i = 0; i < rounds; i++) {
      runs.healthz.push(await load(`${ap.url}/healthz`, options));
      runs.page.push(await load(`${ap.url}/brands`, options));
    }
    for (const [name, list] of Object.entries(runs))
      for (const r of list)
        if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
    const best = (list: LoadResult[]) => list.reduce((a, b) => (b.p50Ms < a.p50Ms ? b : a));
    const healthz = best(runs.healthz);
    const brands = best(runs.page);
    console.log(
      `pages /brands (${rows} rows) vs /healthz, one connection: p50 ${brands.p50Ms} ms, p99 ${brands.p99Ms} ms ` +
        `(target <= ${targets.ms} ms, p99 included) vs p50 ${healthz.p50Ms} ms, p99 ${healthz.p99Ms} ms; ` +
        `${Math.round(brands.requestsPerSecond)} pages/s vs ${Math.round(healthz.requestsPerSecond)} req/s; ` +
        `${options.seconds}s x ${rounds} rounds, best each`,
    );
  } finally {
    await ap.stop();
  }
}
