import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publicTestCredential } from '../src/config.ts';
import { serveAp } from '../test/support/cli.ts';
import { benchOptions, load, type LoadResult } from './support/load.ts';

const PRODUCTS = Number(process.env.BENCH_SALES_PRODUCTS ?? 1000);

/**
 * The sales agent's `get_products` over MCP with a catalog of 1,000 products, against `/healthz`
 * of the same `ap serve`, in alternating rounds: calls per second and p99 side by side. Each call
 * ranks the whole catalog against one of a rotation of briefs and answers a page of 50 products.
 */
export async function salesBench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ap-sales-bench-'));
  try {
    const catalog = join(dir, 'catalog.json');
    await writeFile(catalog, JSON.stringify({ products: Array.from({ length: PRODUCTS }, (_, i) => product(i)) }));
    const ap = await serveAp(['--data-dir', 'memory://'], { AGENTS: 'true', SALES_CATALOG: catalog, ...(process.env.BENCH_PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE}` } : {}) });
    ap.discardLogs();
    try {
      const mcp = {
        ...benchOptions,
        requests: briefs.map((brief, i) => ({
          method: 'POST' as const,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${publicTestCredential}` },
          body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'get_products', arguments: { buying_mode: 'brief', brief, brand: { domain: 'bench.example' } } } }),
        })),
      };
      await load(`${ap.url}/sales/mcp`, { ...mcp, seconds: 1 }); // warm-up: builds the search index
      const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
      const runs: Record<'healthz' | 'get_products', LoadResult[]> = { healthz: [], get_products: [] };
      for (let i = 0; i < rounds; i++) {
        runs.healthz.push(await load(`${ap.url}/healthz`, benchOptions));
        runs.get_products.push(await load(`${ap.url}/sales/mcp`, mcp));
      }
      for (const [name, list] of Object.entries(runs)) for (const r of list) if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
      const best = (list: LoadResult[]) => list.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
      const healthz = best(runs.healthz);
      const products = best(runs.get_products);
      console.log(
        `sales get_products over MCP (${PRODUCTS}-product catalog, ${briefs.length} briefs in rotation, 50 products a page) vs /healthz: ${Math.round(products.requestsPerSecond)} calls/s vs ${Math.round(healthz.requestsPerSecond)} req/s (ratio ${(products.requestsPerSecond / healthz.requestsPerSecond).toFixed(2)}); p99 ${products.p99Ms} ms vs ${healthz.p99Ms} ms; ${benchOptions.connections} connections, ${benchOptions.seconds}s x ${rounds} rounds, best each`,
      );
    } finally {
      await ap.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const briefs = [
  'sports fans watching connected TV in the evening',
  'home cooks looking for weeknight dinner recipes',
  'commuters listening to podcasts',
  'outdoor adventure video for hikers',
  'local news readers in the city',
  'premium display on business news',
];

const topics = ['sports', 'recipes', 'news', 'outdoor', 'finance', 'travel', 'music', 'gaming', 'parenting', 'technology', 'fashion', 'health'];
const channels = [
  { channel: 'display', formats: ['display_300x250', 'display_728x90'] },
  { channel: 'olv', formats: ['video_15s', 'video_30s'] },
  { channel: 'ctv', formats: ['ctv_video_30s'] },
  { channel: 'podcast', formats: ['audio_30s'] },
  { channel: 'dooh', formats: ['dooh_1920x1080'] },
];
const reporting = {
  available_reporting_frequencies: ['daily'],
  expected_delay_minutes: 240,
  timezone: 'UTC',
  supports_webhooks: false,
  available_metrics: ['impressions', 'spend', 'clicks'],
  date_range_support: 'date_range',
};

/** A varied, valid core/product.json: topic, channel, publisher, delivery and pricing cycle at different rates. */
function product(i: number): Record<string, unknown> {
  const topic = topics[i % topics.length]!;
  const { channel, formats } = channels[(i * 7) % channels.length]!;
  const guaranteed = i % 3 === 0;
  return {
    product_id: `p${i}_${topic}_${channel}`,
    name: `${topic[0]!.toUpperCase()}${topic.slice(1)} ${channel} package ${i}`,
    description: `${channel.toUpperCase()} inventory around ${topic} content on publisher ${i % 97}, for audiences who follow ${topic} ${guaranteed ? 'with guaranteed delivery' : 'in the open auction'}.`,
    publisher_properties: [{ publisher_domain: `publisher-${i % 97}.example`, selection_type: 'by_tag', property_tags: [topic] }],
    channels: [channel],
    format_ids: formats.map((id) => ({ agent_url: '/creative/mcp', id })),
    delivery_type: guaranteed ? 'guaranteed' : 'non_guaranteed',
    pricing_options: [
      guaranteed
        ? { pricing_option_id: 'cpm_fixed', pricing_model: 'cpm', currency: 'USD', fixed_price: 8 + (i % 20), min_spend_per_package: 1000 }
        : { pricing_option_id: 'cpm_auction', pricing_model: 'cpm', currency: 'USD', floor_price: 1 + (i % 5) },
    ],
    reporting_capabilities: reporting,
  };
}
