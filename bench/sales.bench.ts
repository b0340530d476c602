import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publicTestCredential } from '../src/config.ts';
import { serveAp, type ServingAp } from '../test/support/cli.ts';
import { openSharedSchema, type SharedSchema } from '../test/support/shared-schema.ts';
import { benchOptions, freshKeyMark, load, type LoadResult } from './support/load.ts';
import { mcpCall, toolResult, type McpPost } from './support/tool-result.ts';

const PRODUCTS = Number(process.env.BENCH_SALES_PRODUCTS ?? 1000);

/**
 * The sales agent over MCP with a catalog of 1,000 products, against `/healthz` of the same
 * `ap serve`, in alternating rounds: calls per second and p99 side by side, on the embedded PGlite
 * and (when it is reachable) on a fresh schema of the local PostgreSQL. `get_products` ranks the
 * whole catalog against one of a rotation of briefs and answers a page of 50 products;
 * `create_media_buy` books a one-package auction buy, each call with its own idempotency key (a
 * transaction with the key's record, the buy, its package and its history entry).
 */
export async function salesBench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ap-sales-bench-'));
  try {
    const catalog = join(dir, 'catalog.json');
    await writeFile(catalog, JSON.stringify({ products: Array.from({ length: PRODUCTS }, (_, i) => product(i)) }));
    const env = {
      AGENTS: 'true',
      SALES_CATALOG: catalog,
      ...(process.env.BENCH_PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE}` } : {}),
    };
    const embedded = await serveAp(['--data-dir', 'memory://'], env);
    try {
      await measure(embedded, 'embedded PGlite');
    } finally {
      await embedded.stop();
    }
    let shared: SharedSchema;
    try {
      shared = await openSharedSchema();
    } catch (error) {
      console.log(`sales: PostgreSQL is not reachable (${(error as Error).message}); PGlite only`);
      return;
    }
    try {
      await measure(await shared.serve(env), 'PostgreSQL');
    } finally {
      await shared.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The rounds on one `ap serve`, and the lines they come to. */
async function measure(ap: ServingAp, engine: string): Promise<void> {
  ap.discardLogs();
  const call = (name: string, args: Record<string, unknown>, id = 1) => mcpCall(publicTestCredential, name, args, id);
  const mcp = {
    ...benchOptions,
    requests: briefs.map((brief, i) =>
      call('get_products', { buying_mode: 'brief', brief, brand: { domain: 'bench.example' } }, i),
    ),
  };
  const account = await syncAccount(ap.url, call);
  const auction = product(1);
  const create = {
    ...benchOptions,
    freshKeys: true,
    requests: [
      call('create_media_buy', {
        idempotency_key: freshKeyMark,
        account,
        brand: { domain: 'bench.example' },
        start_time: 'asap',
        end_time: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        packages: [{ product_id: auction['product_id'], pricing_option_id: 'cpm_auction', budget: 1000, bid_price: 5 }],
      }),
    ],
  };
  // A tool's refusal is still HTTP 200: one call is checked by hand before the load.
  const once = await toolResult(`${ap.url}/sales/mcp`, {
    ...create.requests[0]!,
    body: create.requests[0]!.body.replace(freshKeyMark, crypto.randomUUID()),
  });
  if (once.isError) throw new Error(`create_media_buy refused the bench's buy: ${once.text}`);
  await load(`${ap.url}/sales/mcp`, { ...mcp, seconds: 1 }); // warm-up: builds the search index
  await load(`${ap.url}/sales/mcp`, { ...create, seconds: 1 });
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
  const runs: Record<'healthz' | 'get_products' | 'create_media_buy', LoadResult[]> = {
    healthz: [],
    get_products: [],
    create_media_buy: [],
  };
  for (let i = 0; i < rounds; i++) {
    runs.healthz.push(await load(`${ap.url}/healthz`, benchOptions));
    runs.get_products.push(await load(`${ap.url}/sales/mcp`, mcp));
    runs.create_media_buy.push(await load(`${ap.url}/sales/mcp`, create));
  }
  for (const [name, list] of Object.entries(runs))
    for (const r of list)
      if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
  // Refusals are HTTP 200 too: the buys must be there, one per call.
  const listed = await toolResult(
    `${ap.url}/sales/mcp`,
    call('get_media_buys', {
      account,
      status_filter: ['pending_creatives', 'pending_start', 'active'],
      pagination: { max_results: 1 },
    }),
  );
  const booked = (JSON.parse(listed.text) as { pagination: { total_count: number } }).pagination.total_count;
  const calls = runs.create_media_buy.reduce((sum, r) => sum + r.requestsPerSecond * benchOptions.seconds, 0);
  if (booked < calls)
    throw new Error(`create_media_buy answered about ${Math.round(calls)} calls but booked ${booked} buys`);
  const best = (list: LoadResult[]) => list.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  const healthz = best(runs.healthz);
  const products = best(runs.get_products);
  const buys = best(runs.create_media_buy);
  const side = (r: LoadResult) =>
    `${Math.round(r.requestsPerSecond)} calls/s vs ${Math.round(healthz.requestsPerSecond)} req/s (ratio ${(r.requestsPerSecond / healthz.requestsPerSecond).toFixed(3)}); p99 ${r.p99Ms} ms vs ${healthz.p99Ms} ms; ${benchOptions.connections} connections, ${benchOptions.seconds}s x ${rounds} rounds, best each`;
  console.log(
    `sales get_products over MCP (${PRODUCTS}-product catalog, ${briefs.length} briefs in rotation, 50 products a page, ${engine}) vs /healthz: ${side(products)}`,
  );
  console.log(
    `sales create_media_buy over MCP (one auction package, a new idempotency key each call, ${engine}) vs /healthz: ${side(buys)}`,
  );
}

/** A buyer's account on the agent, made the way a buyer would (sync_accounts). */
async function syncAccount(
  base: string,
  call: (name: string, args: Record<string, unknown>) => McpPost,
): Promise<{ account_id: string }> {
  const synced = await toolResult(
    `${base}/sales/mcp`,
    call('sync_accounts', {
      idempotency_key: crypto.randomUUID(),
      accounts: [{ brand: { domain: 'bench.example' }, operator: 'bench.example', billing: 'operator' }],
    }),
  );
  if (synced.isError) throw new Error(`sync_accounts failed: ${synced.text}`);
  return {
    account_id: (JSON.parse(synced.text) as { accounts: Array<{ account_id: string }> }).accounts[0]!.account_id,
  };
}

const briefs = [
  'sports fans watching connected TV in the evening',
  'home cooks looking for weeknight dinner recipes',
  'commuters listening to podcasts',
  'outdoor adventure video for hikers',
  'local news readers in the city',
  'premium display on business news',
];

const topics = [
  'sports',
  'recipes',
  'news',
  'outdoor',
  'finance',
  'travel',
  'music',
  'gaming',
  'parenting',
  'technology',
  'fashion',
  'health',
];
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
    publisher_properties: [
      { publisher_domain: `publisher-${i % 97}.example`, selection_type: 'by_tag', property_tags: [topic] },
    ],
    channels: [channel],
    format_ids: formats.map((id) => ({ agent_url: '/creative/mcp', id })),
    delivery_type: guaranteed ? 'guaranteed' : 'non_guaranteed',
    pricing_options: [
      guaranteed
        ? {
            pricing_option_id: 'cpm_fixed',
            pricing_model: 'cpm',
            currency: 'USD',
            fixed_price: 8 + (i % 20),
            min_spend_per_package: 1000,
          }
        : { pricing_option_id: 'cpm_auction', pricing_model: 'cpm', currency: 'USD', floor_price: 1 + (i % 5) },
    ],
    reporting_capabilities: reporting,
  };
}
