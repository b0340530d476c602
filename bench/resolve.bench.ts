import { serveAp } from '../test/support/cli.ts';
import { benchOptions, load } from './support/load.ts';

const TOKEN = 'bench-admin-key-0123456789abcdef0123456789';
const DOMAINS = Array.from({ length: 100 }, (_, i) => `brand-${String(i).padStart(3, '0')}.example`);

/**
 * Resolving 100 brand domains: one bulk request against 100 single requests, both against the same
 * `ap serve` with 100 registered brands. Compared in domains resolved per second, alternating.
 */
export async function resolveBench(): Promise<void> {
  const ap = await serveAp(['--data-dir', 'memory://'], {
    AP_ADMIN_KEY: TOKEN,
    RATE_LIMIT_SAVES_PER_HOUR: '100000',
    RATE_LIMIT_SAVES_PER_HOUR_PER_IP: '100000',
    RATE_LIMIT_BULK_RESOLVE_PER_MINUTE: '1000000',
  });
  try {
    for (const domain of DOMAINS) {
      const res = await fetch(`${ap.url}/api/brands/save`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ domain, brand_name: domain }),
      });
      if (!res.ok) throw new Error(`seeding ${domain}: HTTP ${res.status}`);
    }
    const single = {
      ...benchOptions,
      requests: DOMAINS.map((d) => ({ method: 'GET' as const, path: `/api/brands/resolve?domain=${d}` })),
    };
    const bulk = {
      ...benchOptions,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ domains: DOMAINS }),
    };
    await load(`${ap.url}/healthz`, { ...benchOptions, seconds: 1 });
    const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
    let bestSingle = 0;
    let bestBulk = 0;
    for (let i = 0; i < rounds; i++) {
      const s = await load(ap.url, single);
      const b = await load(`${ap.url}/api/brands/resolve/bulk`, bulk);
      for (const r of [s, b])
        if (r.errors > 0 || r.non2xx > 0) throw new Error(`${r.errors} errors, ${r.non2xx} non-2xx responses`);
      bestSingle = Math.max(bestSingle, s.requestsPerSecond);
      bestBulk = Math.max(bestBulk, b.requestsPerSecond * DOMAINS.length);
    }
    console.log(
      `resolve: 100 brands, ${benchOptions.connections} connections, ${benchOptions.seconds}s x ${rounds} rounds, best round each`,
    );
    console.table({
      '100 single resolves': { 'domains/s': Math.round(bestSingle) },
      '1 bulk resolve of 100': { 'domains/s': Math.round(bestBulk) },
    });
    console.log(`resolve throughput ratio bulk/single (domains per second): ${(bestBulk / bestSingle).toFixed(2)}`);
  } finally {
    await ap.stop();
  }
}
