import { publicTestCredential } from '../src/config.ts';
import { serveAp } from '../test/support/cli.ts';
import { startBannerHost } from './support/banner-host.ts';
import { load, type LoadOptions, type LoadResult } from './support/load.ts';
import { mcpCall, toolResult, type McpPost } from './support/tool-result.ts';

/** The targets, each judged at the median of one connection calling back to back. */
const targets = { formatsP50Ms: 10, htmlP50Ms: 50, pngP50Ms: 250, batchRatio: 5, buildP50Ms: 1000 };
const BATCH = 10;

/**
 * The creative agents over MCP against `/healthz` of the same `ap serve`, one connection each (a
 * buyer's call as it sees it): list_creative_formats; preview_creative of a 300x250 banner hosted
 * as a page, and with its PNG snapshot rendered in the call (quality production); a batch of ten
 * banners (each its own image and landing page) against ten single calls (time per preview);
 * build_creative generating a display banner from a brand and an offering, each call with its own
 * idempotency key. The banners' images come from a loopback host the server is allowed to fetch
 * (AP_FETCH_ALLOW).
 */
export async function creativeBench(): Promise<void> {
  const images = await startBannerHost();
  const imageHost = images.host;
  const ap = await serveAp(['--data-dir', 'memory://'], {
    AGENTS: 'true',
    AP_FETCH_ALLOW: imageHost,
    ...(process.env.BENCH_PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE}` } : {}),
  });
  ap.discardLogs();
  try {
    const creative = `${ap.url}/creative/mcp`;
    const call = (name: string, args: Record<string, unknown>) => mcpCall(publicTestCredential, name, args);
    const banner = (n: number) => ({
      format_id: { agent_url: creative, id: 'display_300x250' },
      assets: {
        banner_image: { asset_type: 'image', url: `http://${imageHost}/banner-${n}.png`, width: 300, height: 250 },
        click_url: { asset_type: 'url', url: `https://brand.example/landing/${n}?cb={CACHEBUSTER}` },
      },
    });
    const manifest = banner(0);
    const cases: Array<{ name: string; url: string; request: McpPost & { method: 'POST' }; freshKeys?: boolean }> = [
      { name: 'list_creative_formats', url: creative, request: call('list_creative_formats', {}) },
      {
        name: 'preview_creative (html page)',
        url: creative,
        request: call('preview_creative', { request_type: 'single', creative_manifest: manifest }),
      },
      {
        name: 'preview_creative (with png)',
        url: creative,
        request: call('preview_creative', {
          request_type: 'single',
          creative_manifest: manifest,
          quality: 'production',
        }),
      },
      {
        name: `preview_creative (batch of ${BATCH})`,
        url: creative,
        request: call('preview_creative', {
          request_type: 'batch',
          requests: Array.from({ length: BATCH }, (_, n) => ({ creative_manifest: banner(n) })),
        }),
      },
    ];
    const builder = `${ap.url}/creative-builder/mcp`;
    const build = call('build_creative', {
      idempotency_key: '__FRESH_UUID__',
      target_format_id: { agent_url: creative, id: 'display_300x250' },
      creative_manifest: generationManifest(creative),
    });
    const builds = (await fetch(builder, { method: 'POST', headers: build.headers, body: build.body })).status !== 404;
    if (builds)
      cases.push({ name: 'build_creative (display generation)', url: builder, request: build, freshKeys: true });
    for (const c of cases) {
      const answer = await toolResult(c.url, {
        ...c.request,
        body: c.request.body.replace('__FRESH_UUID__', crypto.randomUUID()),
      });
      if (answer.isError) throw new Error(`${c.name} refused: ${answer.text}`);
      // A batch answers its refusals per request, not as an error: every one must have previewed.
      const results = (JSON.parse(answer.text) as { results?: Array<{ success: boolean }> }).results;
      if (results?.some((r) => !r.success)) throw new Error(`${c.name}: a request of the batch failed: ${answer.text}`);
    }
    const one: LoadOptions = { seconds: Number(process.env.BENCH_SECONDS ?? 5), connections: 1 };
    const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
    const runs = new Map<string, LoadResult[]>([
      ['/healthz', []],
      ...cases.map((c) => [c.name, []] as [string, LoadResult[]]),
    ]);
    for (const c of cases)
      await load(c.url, { ...one, seconds: 1, requests: [c.request], ...(c.freshKeys ? { freshKeys: true } : {}) }); // warm-up
    for (let i = 0; i < rounds; i++) {
      runs.get('/healthz')!.push(await load(`${ap.url}/healthz`, one));
      for (const c of cases)
        runs
          .get(c.name)!
          .push(await load(c.url, { ...one, requests: [c.request], ...(c.freshKeys ? { freshKeys: true } : {}) }));
    }
    for (const [name, list] of runs)
      for (const r of list)
        if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
    const best = (name: string) =>
      runs.get(name)!.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
    const healthz = best('/healthz');
    const line = (name: string, target?: number) => {
      const r = best(name);
      const verdict =
        target === undefined ? '' : `; target p50 <= ${target} ms: ${r.p50Ms <= target ? 'met' : 'NOT met'}`;
      console.log(
        `creative ${name} over MCP, one connection: ${Math.round(r.requestsPerSecond)} calls/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms vs /healthz ${Math.round(healthz.requestsPerSecond)} req/s, p50 ${healthz.p50Ms} ms, p99 ${healthz.p99Ms} ms${verdict}`,
      );
    };
    line('list_creative_formats', targets.formatsP50Ms);
    line('preview_creative (html page)', targets.htmlP50Ms);
    line('preview_creative (with png)', targets.pngP50Ms);
    line(`preview_creative (batch of ${BATCH})`);
    // Time per preview: a second of single calls against a second of batches, each the best round.
    const singles = best('preview_creative (html page)').requestsPerSecond;
    const batched = best(`preview_creative (batch of ${BATCH})`).requestsPerSecond * BATCH;
    const ratio = batched / singles;
    console.log(
      `creative preview_creative: ${Math.round(batched)} previews/s in batches of ${BATCH} vs ${Math.round(singles)} in single calls (ratio ${ratio.toFixed(2)}); target ratio >= ${targets.batchRatio}: ${ratio >= targets.batchRatio ? 'met' : 'NOT met'}`,
    );
    if (builds) line('build_creative (display generation)', targets.buildP50Ms);
    else console.log('creative build_creative: not served by this deployment (no /creative-builder/mcp)');
  } finally {
    await ap.stop();
    images.close();
  }
}

/** A minimal manifest to generate from: a brand (name, colours) and one offering. */
function generationManifest(creativeAgentUrl: string): Record<string, unknown> {
  return {
    format_id: { agent_url: creativeAgentUrl, id: 'display_300x250' },
    assets: {
      promoted_offerings: {
        brand_manifest: {
          name: 'Trailhead Coffee',
          url: 'https://trailhead-coffee.example',
          colors: { primary: '#1d4ed8', secondary: '#f59e0b' },
        },
        inline_offerings: [
          {
            name: 'Cold brew subscription',
            description: 'Small-batch cold brew delivered every week, first box free.',
          },
        ],
      },
    },
  };
}
