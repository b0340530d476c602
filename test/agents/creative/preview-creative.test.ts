import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Resvg } from '@resvg/resvg-js';
import type { Browser } from 'playwright-core';
import { creativeAgent } from '../../../src/agents/creative/index.ts';
import { parseAllowList } from '../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { mcpClient } from '../../support/agents.ts';
import { startServerWithBrowser } from '../../support/browser.ts';
import { ManualClock } from '../../support/clock.ts';
import { engines } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';

const PREVIEW_RESPONSE = '/schemas/3.0.6/creative/preview-creative-response.json';
const token = 'creative-test-credential';

/** A solid red PNG of the given size, as a buyer's image host would serve it. */
function redPng(width: number, height: number): Buffer {
  return Buffer.from(
    new Resvg(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#ff0000"/></svg>`,
    )
      .render()
      .asPng(),
  );
}

const vastWrapper = (next: string) =>
  `<VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>ad server</AdSystem><VASTAdTagURI><![CDATA[${next}]]></VASTAdTagURI><Impression><![CDATA[https://ads.example/imp]]></Impression></Wrapper></Ad></VAST>`;
const vastInline = (spot: string) =>
  `<VAST version="4.2"><Ad id="i"><InLine><AdSystem>ad server</AdSystem><AdTitle>Spot</AdTitle><Creatives><Creative><Linear><Duration>00:00:30</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="1280" height="720"><![CDATA[${spot}]]></MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>`;

/** PNG width and height, from its IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(bytes);
  assert.equal(view.subarray(1, 4).toString('latin1'), 'PNG');
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

/**
 * preview_creative through the official MCP client and plain HTTP: manifests checked against their
 * format, previews rendered as pages this server hosts (opened in a real browser at the format's
 * size), PNG snapshots of display formats, variants with macros, batches, and expiry.
 */
describe('creative agent: preview_creative', () => {
  let server: TestServer;
  let client: Client;
  let browser: Browser;
  let images: http.Server;
  let imageHost = '';
  const clock = new ManualClock();
  const format = (id: string) => ({ agent_url: `${server.url}/creative/mcp`, id });
  const banner = (overrides: Json = {}) => ({
    format_id: format('display_300x250'),
    assets: {
      banner_image: { asset_type: 'image', url: `${imageHost}/red-300x250.png`, width: 300, height: 250 },
      click_url: { asset_type: 'url', url: 'https://brand.example/landing?device={DEVICE_TYPE}&cb={CACHEBUSTER}' },
      ...overrides,
    },
  });
  const call = async (args: Json): Promise<Json> => {
    const result = (await client.callTool({ name: 'preview_creative', arguments: args })) as Json;
    const payload = JSON.parse(result.content[0].text as string) as Json;
    if (result.isError) return { error: payload };
    assert.deepEqual(validateSchema(PREVIEW_RESPONSE, payload).errors, [], 'the published response');
    return payload;
  };
  const post = (body: unknown) =>
    fetch(`${server.url}/creative/tasks/preview_creative`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  before(async () => {
    images = http.createServer((req, res) => {
      if (req.url === '/red-300x250.png') res.writeHead(200, { 'content-type': 'image/png' }).end(redPng(300, 250));
      else if (req.url === '/vast-wrapper.xml')
        res.writeHead(200, { 'content-type': 'application/xml' }).end(vastWrapper(`${imageHost}/vast-inline.xml`));
      else if (req.url === '/vast-inline.xml')
        res.writeHead(200, { 'content-type': 'application/xml' }).end(vastInline(`${imageHost}/spot.mp4`));
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    imageHost = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
    const fetcher = new SafeFetch({ allow: parseAllowList(new URL(imageHost).host) });
    const tenant = creativeAgent({
      base: () => server.url,
      credentials: [{ token, name: 'public-test' }],
      fetcher,
      previewTtlSeconds: 3600,
    });
    ({ server, browser } = await startServerWithBrowser(engines[0]!, { deps: { tenants: [tenant], clock, fetcher } }));
    client = await mcpClient(server.url, '/creative', { authorization: `Bearer ${token}` });
  });
  after(async () => {
    await client?.close();
    await browser?.close();
    await server?.close();
    images?.close();
  });

  it('hosts a preview a real browser shows at the format’s size, with the creative’s image', async () => {
    const answer = await call({ request_type: 'single', creative_manifest: banner() });
    assert.equal(answer.response_type, 'single');
    const [preview] = answer.previews as Json[];
    const render = (preview!.renders as Json[])[0]!;
    assert.deepEqual(
      [render.output_format, render.role, render.dimensions],
      ['url', 'primary', { width: 300, height: 250 }],
    );
    assert.deepEqual(preview!.input, { name: 'Default' });
    assert.ok(
      Date.parse(answer.expires_at) - clock.now().getTime() === 3600 * 1000,
      'expires after the configured lifetime',
    );

    const page = await browser.newPage();
    try {
      const res = await page.goto(render.preview_url);
      assert.equal(res!.status(), 200);
      assert.match(res!.headers()['content-type']!, /^text\/html/);
      const image = page.locator('img').first();
      await image.waitFor();
      const box = await image.boundingBox();
      assert.deepEqual([box!.width, box!.height], [300, 250]);
      assert.equal(
        await page.evaluate('document.querySelector("img").complete && document.querySelector("img").naturalWidth'),
        300,
        'the image loaded from the buyer’s host',
      );
    } finally {
      await page.close();
    }
  });

  it('snapshots a display format as a PNG of its size showing the creative', async () => {
    const answer = await call({ request_type: 'single', creative_manifest: banner(), quality: 'production' });
    const render = ((answer.previews as Json[])[0]!.renders as Json[])[0]!;
    const res = await fetch(render.snapshot_url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.deepEqual(pngSize(bytes), { width: 300, height: 250 });
    const page = await browser.newPage();
    try {
      const dataUrl = `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`;
      // Decoded by the browser: the pixel in the middle of the snapshot.
      const [r, g, b] = (await page.evaluate(`(async () => {
        const img = new Image();
        img.src = ${JSON.stringify(dataUrl)};
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const context = canvas.getContext('2d');
        context.drawImage(img, 0, 0);
        return [...context.getImageData(150, 125, 1, 1).data];
      })()`)) as number[];
      assert.deepEqual([r, g, b], [255, 0, 0], 'the middle of the snapshot is the creative’s red');
    } finally {
      await page.close();
    }
  });

  it('renders the snapshot at its first fetch when the call did not', async () => {
    const answer = await call({ request_type: 'single', creative_manifest: banner() });
    const render = ((answer.previews as Json[])[0]!.renders as Json[])[0]!;
    const first = new Uint8Array(await (await fetch(render.snapshot_url)).arrayBuffer());
    assert.deepEqual(pngSize(first), { width: 300, height: 250 });
    const again = new Uint8Array(await (await fetch(render.snapshot_url)).arrayBuffer());
    assert.deepEqual(again, first, 'kept once rendered');
  });

  it('renders one preview per input set with its macros, and inline HTML when asked', async () => {
    const answer = await call({
      request_type: 'single',
      creative_manifest: banner(),
      output_format: 'html',
      inputs: [
        { name: 'Mobile', macros: { DEVICE_TYPE: 'mobile' } },
        { name: 'Desktop', macros: { DEVICE_TYPE: 'desktop' } },
      ],
    });
    const previews = answer.previews as Json[];
    assert.deepEqual(
      previews.map((p) => p.input.name),
      ['Mobile', 'Desktop'],
    );
    const [mobile, desktop] = previews.map((p) => (p.renders as Json[])[0]!);
    assert.equal(mobile!.output_format, 'html');
    assert.match(mobile!.preview_html, /device=mobile/);
    assert.match(desktop!.preview_html, /device=desktop/);
    assert.equal(mobile!.preview_url, undefined);
  });

  it('follows a VAST tag given by URL through its wrapper to the spot, and plays it in the preview', async () => {
    const manifest = {
      format_id: format('video_vast_30s'),
      assets: {
        vast_tag: {
          asset_type: 'vast',
          delivery_type: 'url',
          url: `${imageHost}/vast-wrapper.xml`,
          vast_version: '4.2',
        },
      },
    };
    const answer = await call({ request_type: 'single', creative_manifest: manifest, output_format: 'html' });
    const render = ((answer.previews as Json[])[0]!.renders as Json[])[0]!;
    assert.match(render.preview_html, /<video[^>]*>/);
    assert.ok(render.preview_html.includes(`${imageHost}/spot.mp4`), 'the inline document’s media file');

    const unreachable = {
      ...manifest,
      assets: { vast_tag: { ...manifest.assets.vast_tag, url: `${imageHost}/missing.xml` } },
    };
    const named = await call({ request_type: 'single', creative_manifest: unreachable, output_format: 'html' });
    assert.ok(
      ((named.previews as Json[])[0]!.renders as Json[])[0]!.preview_html.includes(`${imageHost}/missing.xml`),
      'a tag it cannot fetch is named',
    );
  });

  it('refuses more than 20 variants of one creative, naming the field, alone or in a batch', async () => {
    const inputs = Array.from({ length: 21 }, (_, i) => ({ name: `v${i}`, macros: { DEVICE_TYPE: String(i) } }));
    const { error } = await call({ request_type: 'single', creative_manifest: banner(), inputs });
    assert.deepEqual([error.code, error.field], ['INVALID_REQUEST', 'inputs']);
    const res = await post({ request_type: 'batch', requests: [{ creative_manifest: banner(), inputs }] });
    assert.equal(res.status, 400);
  });

  it('finds its format whatever spelling of its agent URL the buyer sends', async () => {
    const url = new URL(`${server.url}/creative/mcp/`);
    const spelled = { agent_url: `${url.protocol}//${url.host.toUpperCase()}${url.pathname}`, id: 'display_300x250' };
    const answer = await call({ request_type: 'single', creative_manifest: { ...banner(), format_id: spelled } });
    assert.equal((answer.previews as Json[]).length, 1);
  });

  it('names each failing asset of a manifest that does not meet its format (422 over HTTP)', async () => {
    const manifest = banner({
      banner_image: { asset_type: 'image', url: `${imageHost}/red-300x250.png`, width: 320, height: 50 },
    });
    delete (manifest.assets as Json).click_url;
    const { error } = await call({ request_type: 'single', creative_manifest: manifest });
    assert.equal(error.code, 'VALIDATION_ERROR');
    const failing = (error.details.assets as Json[]).map((a) => a.asset_id);
    assert.ok(failing.includes('banner_image') && failing.includes('click_url'), JSON.stringify(error.details));

    const res = await post({ request_type: 'single', creative_manifest: manifest });
    assert.equal(res.status, 422);
    const body = await json(res);
    assert.deepEqual(Object.keys(body), ['status', 'error']);
    assert.equal(body.error.code, 'VALIDATION_ERROR');
  });

  it('answers an unknown format 404 and a bare-string format id INVALID_FORMAT_ID (400) over HTTP; isError over MCP', async () => {
    const unknown = { ...banner(), format_id: format('display_1x1') };
    assert.equal(
      (await call({ request_type: 'single', creative_manifest: unknown })).error.code,
      'FORMAT_NOT_SUPPORTED',
    );
    const res = await post({ request_type: 'single', creative_manifest: unknown });
    assert.equal(res.status, 404);
    assert.equal((await json(res)).error.code, 'FORMAT_NOT_SUPPORTED');

    const bare = await post({ request_type: 'single', format_id: 'display_300x250', creative_manifest: banner() });
    assert.equal(bare.status, 400);
    assert.deepEqual([(await json(bare)).error.code], ['INVALID_FORMAT_ID']);
  });

  it('previews a batch in order, one failing request failing only its own result', async () => {
    const answer = await call({
      request_type: 'batch',
      requests: [
        { creative_manifest: banner(), creative_id: 'first' },
        { creative_manifest: { ...banner(), format_id: format('nope') }, creative_id: 'second' },
        { creative_manifest: banner() },
      ],
    });
    assert.equal(answer.error, undefined, JSON.stringify(answer.error));
    const results = answer.results as Json[];
    assert.deepEqual(
      results.map((r) => [r.creative_id, r.success]),
      [
        ['first', true],
        ['second', false],
        ['requests[2]', true],
      ],
    );
    assert.deepEqual(
      [results[1]!.errors[0].code, results[1]!.errors[0].field],
      ['FORMAT_NOT_SUPPORTED', 'requests[1].creative_manifest.format_id'],
    );
    for (const i of [0, 2]) {
      const render = ((results[i]!.response.previews as Json[])[0]!.renders as Json[])[0]!;
      assert.equal((await fetch(render.preview_url)).status, 200);
    }
  });

  it('answers 410 preview_expired once a preview has expired, and 404 not_found for one that never was, in the catalogue’s shape', async () => {
    const answer = await call({ request_type: 'single', creative_manifest: banner() });
    const render = ((answer.previews as Json[])[0]!.renders as Json[])[0]!;
    assert.equal((await fetch(render.preview_url)).status, 200);
    clock.advance(3600 * 1000);
    for (const url of [render.preview_url as string, render.snapshot_url as string]) {
      const res = await fetch(url);
      assert.equal(res.status, 410);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const body = (await res.json()) as Json;
      assert.deepEqual(Object.keys(body), ['error', 'message']);
      assert.equal(body.error, 'preview_expired');
      assert.match(body.message, /^This preview expired at .*; call preview_creative again\.$/);
    }
    const unknown = await fetch(`${server.url}/creative/previews/${'x'.repeat(22)}`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(await unknown.json(), { error: 'not_found', message: 'No such preview.' });
  });
});
