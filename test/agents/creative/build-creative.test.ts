import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { creativeBuilderAgent } from '../../../src/agents/creative/index.ts';
import { readAdTag } from '../../../src/agents/creative/render/vast.ts';
import { manifestProblems, standardFormats, type Format } from '../../../src/agents/formats/index.ts';
import { parseAllowList } from '../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { mcpClient } from '../../support/agents.ts';
import { ManualClock } from '../../support/clock.ts';
import { engines } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { pixel, pngSize, solidPng } from './render/fixtures.ts';

const RESPONSE = '/schemas/3.0.6/media-buy/build-creative-response.json';
const token = 'creative-builder-test-credential';
const primary = '#0b3d2e';
const secondary = '#f2a900';

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/**
 * build_creative through the official MCP client and plain HTTP, on each engine: generation from
 * promoted offerings for display, native, HTML5, video and audio formats; transformation to other
 * sizes and several formats at once; the message's instructions; assets stored and served at
 * stable URLs; idempotent replay; previews; and every error in the creative envelope.
 */
for (const engine of engines) {
  describe(`creative builder: build_creative (${engine.name})`, () => {
    let server: TestServer;
    let client: Client;
    let images: http.Server;
    let imageHost = '';
    const logoFetches: string[] = [];
    /** `/slow-logo.png` answers once this settles; `slowLogoAsked` settles when it is asked for. */
    let heldLogo: Promise<void> = Promise.resolve();
    let slowLogoAsked: Promise<void> = new Promise(() => {});
    let slowAsked = () => {};
    const clock = new ManualClock();
    const formatId = (id: string) => ({ agent_url: `${server.url}/creative/mcp`, id });
    const formatOf = (id: string): Format =>
      standardFormats(`${server.url}/creative/mcp`).find((f) => f.format_id.id === id)!;
    const promoted = (overrides: Json = {}) => ({
      brand_manifest: {
        name: 'Trailhead Coffee',
        url: 'https://trailhead.example/',
        colors: { primary, secondary },
        logos: [{ url: `${imageHost}/logo.png` }],
        ...overrides,
      },
      inline_offerings: [
        {
          name: 'Summit Roast Winter Blend',
          description: 'A dark roast for cold mornings. Roasted weekly in small batches and shipped free.',
          landing_url: 'https://trailhead.example/summit',
        },
      ],
    });
    const minimal = (target: string, assets: Json = {}) => ({
      format_id: formatId(target),
      assets: { promoted_offerings: promoted(), ...assets },
    });
    const generate = (target: string, extra: Json = {}, assets: Json = {}): Json => ({
      idempotency_key: randomUUID(),
      target_format_id: formatId(target),
      creative_manifest: minimal(target, assets),
      ...extra,
    });

    const call = async (args: Json): Promise<Json> => {
      const result = (await client.callTool({ name: 'build_creative', arguments: args })) as Json;
      const payload = JSON.parse(result.content[0].text as string) as Json;
      if (result.isError) return { error: payload };
      assert.deepEqual(validateSchema(RESPONSE, payload).errors, [], 'the published response');
      return payload;
    };
    const built = async (args: Json): Promise<Json> => {
      const answer = await call(args);
      assert.equal(answer.error, undefined, JSON.stringify(answer.error));
      return answer;
    };
    const post = (body: unknown) =>
      fetch(`${server.url}/creative-builder/tasks/build_creative`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const fetchPng = async (url: string) => {
      const res = await fetch(url);
      assert.equal(res.status, 200, url);
      assert.equal(res.headers.get('content-type'), 'image/png');
      return new Uint8Array(await res.arrayBuffer());
    };
    const meetsFormat = (manifest: Json) =>
      assert.deepEqual(
        manifestProblems(formatOf(manifest.format_id.id), manifest as never),
        [],
        `${manifest.format_id.id} meets its format`,
      );

    before(async () => {
      const logo = solidPng(120, 60, '#ff00ff');
      const red = solidPng(300, 250, '#ff0000');
      images = http.createServer((req, res) => {
        if (req.url === '/slow-logo.png') {
          slowAsked();
          void heldLogo.then(() => res.writeHead(200, { 'content-type': 'image/png' }).end(logo));
        } else if (req.url === '/logo.png') {
          logoFetches.push(req.url);
          res.writeHead(200, { 'content-type': 'image/png' }).end(logo);
        } else if (req.url === '/red-300x250.png') res.writeHead(200, { 'content-type': 'image/png' }).end(red);
        else res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
      imageHost = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
      const fetcher = new SafeFetch({ allow: parseAllowList(new URL(imageHost).host) });
      const tenant = creativeBuilderAgent({
        base: () => server.url,
        credentials: [{ token, name: 'public-test' }],
        fetcher,
        previewTtlSeconds: 3600,
      });
      server = await startTestServer(engine, { deps: { tenants: [tenant], clock, fetcher } });
      client = await mcpClient(server.url, '/creative-builder', { authorization: `Bearer ${token}` });
    });
    after(async () => {
      await client?.close();
      await server?.close();
      images?.close();
    });

    it('generates a display banner: a PNG of the format’s exact size in the brand’s colours with its logo, served at a stable URL', async () => {
      const fetchesBefore = logoFetches.length;
      const { creative_manifest: manifest } = await built(generate('display_300x250'));
      assert.deepEqual(manifest.format_id, formatId('display_300x250'));
      meetsFormat(manifest);
      assert.deepEqual(Object.keys(manifest.assets).sort(), ['banner_image', 'click_url']);
      assert.deepEqual(manifest.assets.click_url, {
        asset_type: 'url',
        url: 'https://trailhead.example/summit',
        url_type: 'clickthrough',
      });
      const image = manifest.assets.banner_image;
      assert.match(image.url, new RegExp(`^${server.url}/creative/assets/[0-9a-f]{64}\\.png$`));
      const res = await fetch(image.url);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      const png = await fetchPng(image.url);
      assert.deepEqual(pngSize(png), { width: 300, height: 250 });
      assert.equal(image.file_size_bytes, png.byteLength);
      assert.deepEqual(pixel(png, 2, 2).slice(0, 3), rgb(primary), 'filled with the brand’s primary colour');
      assert.ok(logoFetches.length > fetchesBefore, 'the logo was fetched through the SSRF-safe client');
      const magenta = [...Array(40).keys()].some(
        (x) =>
          pixel(png, 100 + x, 40)
            .slice(0, 3)
            .join() === '255,0,255',
      );
      assert.ok(magenta, 'the logo is drawn near the top');
    });

    it('generates a native ad: every text composed from the offerings within its limit, the 1.91:1 image and the logo', async () => {
      const { creative_manifest: manifest } = await built(generate('native_in_feed'));
      meetsFormat(manifest);
      const { assets } = manifest;
      assert.equal(assets.headline.content, 'Summit Roast Winter Blend');
      assert.equal(assets.sponsor_name.content, 'Trailhead Coffee');
      assert.equal(assets.cta.content, 'Learn more');
      assert.ok([...assets.body.content].length <= 140);
      for (const [id, max] of [
        ['headline', 50],
        ['body', 140],
        ['sponsor_name', 25],
        ['cta', 15],
      ] as const)
        assert.ok([...assets[id].content].length <= max, `${id} within ${max}`);
      assert.deepEqual(pngSize(await fetchPng(assets.main_image.url)), { width: 1200, height: 628 });
      assert.deepEqual(pngSize(await fetchPng(assets.logo.url)), { width: 100, height: 100 });
    });

    it('fits long copy to the format’s limits', async () => {
      const long = {
        name: 'The Summit Roast Winter Blend, our darkest and boldest coffee for the longest coldest mornings of the year',
        description: 'word '.repeat(60).trim(),
        landing_url: 'https://trailhead.example/summit',
      };
      const args = generate('display_responsive');
      args.creative_manifest.assets.promoted_offerings.inline_offerings = [long];
      const { creative_manifest: manifest } = await built(args);
      meetsFormat(manifest);
      assert.ok(
        [...manifest.assets.headline.content].length <= 30 && manifest.assets.headline.content.endsWith('…'),
        manifest.assets.headline.content,
      );
      assert.ok([...manifest.assets.description.content].length <= 90);
      assert.deepEqual(pngSize(await fetchPng(manifest.assets.landscape_image.url)), { width: 600, height: 314 });
    });

    it('generates an HTML5 banner: a document in the brand’s colours with the copy and the clickthrough, and its backup image', async () => {
      const { creative_manifest: manifest } = await built(generate('html5_728x90'));
      meetsFormat(manifest);
      const html = manifest.assets.html_creative.content as string;
      assert.match(html, /^<!doctype html>/);
      assert.ok(html.includes('Summit Roast'), 'the headline');
      assert.ok(html.includes(`background:${primary}`), 'the brand colour');
      assert.ok(html.includes('href="https://trailhead.example/summit"'), 'the clickthrough');
      assert.ok(html.includes(`src="${imageHost}/logo.png"`), 'the logo');
      assert.deepEqual(pngSize(await fetchPng(manifest.assets.backup_image.url)), { width: 728, height: 90 });
    });

    it('generates a VAST 4 tag around the given video, and names the missing video when none is given', async () => {
      const video = {
        asset_type: 'video',
        url: 'https://cdn.trailhead.example/spot-30.mp4',
        width: 1920,
        height: 1080,
        duration_ms: 30_000,
      };
      const { creative_manifest: manifest } = await built(generate('video_vast_30s', {}, { spot: video }));
      meetsFormat(manifest);
      const tag = manifest.assets.vast_tag;
      assert.deepEqual(
        [tag.asset_type, tag.delivery_type, tag.vast_version, tag.duration_ms],
        ['vast', 'inline', '4.2', 30_000],
      );
      assert.match(tag.content, /<VAST version="4\.2"/);
      assert.match(tag.content, /<Duration>00:00:30\.000<\/Duration>/);
      assert.match(tag.content, /<ClickThrough id="clickthrough"><!\[CDATA\[https:\/\/trailhead\.example\/summit\]\]>/);
      assert.deepEqual(
        readAdTag(tag.content).mediaFiles.map((f) => [f.url, f.type]),
        [[video.url, 'video/mp4']],
      );

      const hosted = await built(generate('video_30s', {}, { spot: video }));
      assert.deepEqual(
        hosted.creative_manifest.assets.video_file,
        video,
        'a hosted video format takes the spot as it is',
      );

      const { error } = await call(generate('video_vast_30s'));
      assert.equal(error.code, 'VALIDATION_ERROR');
      assert.deepEqual(
        error.details.assets.map((a: Json) => a.asset_id),
        ['vast_tag'],
      );
      assert.match(error.message, /asset_type "video"/);
    });

    it('generates a DAAST tag around the given audio, and passes the audio to a hosted audio format', async () => {
      const audio = { asset_type: 'audio', url: 'https://cdn.trailhead.example/spot-15.mp3', duration_ms: 15_000 };
      const { creative_manifest: manifest } = await built(generate('audio_daast_15s', {}, { spot: audio }));
      meetsFormat(manifest);
      const tag = manifest.assets.daast_tag;
      assert.deepEqual([tag.asset_type, tag.daast_version], ['daast', '1.0']);
      assert.match(tag.content, /^<\?xml[^>]*>\n<DAAST version="1\.0">/);
      assert.deepEqual(
        readAdTag(tag.content).mediaFiles.map((f) => [f.url, f.type]),
        [[audio.url, 'audio/mpeg']],
      );
      const hosted = await built(generate('audio_15s', {}, { spot: audio }));
      meetsFormat(hosted.creative_manifest);
      assert.equal(hosted.creative_manifest.assets.audio_file.url, audio.url);
      assert.equal((await call(generate('audio_daast_15s'))).error.details.assets[0].asset_id, 'daast_tag');
    });

    it('transforms a 300x250 banner into a 728x90 one, re-laying its picture at the new size', async () => {
      const source = {
        format_id: formatId('display_300x250'),
        assets: {
          banner_image: { asset_type: 'image', url: `${imageHost}/red-300x250.png`, width: 300, height: 250 },
          click_url: { asset_type: 'url', url: 'https://brand.example/landing?cb={CACHEBUSTER}' },
        },
      };
      const { creative_manifest: manifest } = await built({
        idempotency_key: randomUUID(),
        creative_manifest: source,
        target_format_id: formatId('display_728x90'),
        macro_values: { CACHEBUSTER: '42', NOT_A_MACRO: 'x' },
      });
      meetsFormat(manifest);
      assert.equal(manifest.assets.click_url.url, 'https://brand.example/landing?cb=42', 'macro_values filled in');
      const png = await fetchPng(manifest.assets.banner_image.url);
      assert.deepEqual(pngSize(png), { width: 728, height: 90 });
      assert.deepEqual(pixel(png, 364, 45).slice(0, 3), [255, 0, 0], 'the picture, whole, in the middle');
    });

    it('builds several formats at once: creative_manifests[] in the order asked, each meeting its format, with a preview each', async () => {
      const targets = ['display_728x90', 'native_in_feed', 'html5_300x250'];
      const answer = await built({
        idempotency_key: randomUUID(),
        creative_manifest: minimal('display_300x250'),
        target_format_ids: targets.map(formatId),
        include_preview: true,
      });
      assert.equal(answer.creative_manifest, undefined);
      const manifests = answer.creative_manifests as Json[];
      assert.deepEqual(
        manifests.map((m) => m.format_id.id),
        targets,
      );
      for (const manifest of manifests) meetsFormat(manifest);
      assert.deepEqual(
        (answer.preview.previews as Json[]).map((p) => p.format_id.id),
        targets,
      );
    });

    it('follows the message: a shorter headline, another call to action, an emphasised colour', async () => {
      const plain = (await built(generate('native_in_feed'))).creative_manifest.assets;
      const shorter = (await built(generate('native_in_feed', { message: 'Make the copy shorter.' }))).creative_manifest
        .assets;
      assert.ok(
        shorter.headline.content.length < plain.headline.content.length,
        `${shorter.headline.content} is shorter`,
      );
      assert.ok(shorter.body.content.length < plain.body.content.length);

      const cta = (
        await built(generate('native_in_feed', { message: 'Change the call to action to "Book a tasting".' }))
      ).creative_manifest.assets;
      assert.equal(cta.cta.content, 'Book a tasting');
      const html = (await built(generate('html5_300x250', { message: 'change the CTA to "Book a tasting"' })))
        .creative_manifest.assets.html_creative.content;
      assert.ok(html.includes('Book a tasting'));

      const emphasised = (await built(generate('display_300x250', { message: 'Emphasise the secondary colour' })))
        .creative_manifest.assets;
      assert.deepEqual(
        pixel(await fetchPng(emphasised.banner_image.url), 2, 2).slice(0, 3),
        rgb(secondary),
        'filled with the secondary colour',
      );
      const hex = (await built(generate('html5_300x250', { message: 'use more #1d4ed8' }))).creative_manifest.assets;
      assert.ok(hex.html_creative.content.includes('background:#1d4ed8'));
      assert.deepEqual(pixel(await fetchPng(hex.backup_image.url), 2, 2).slice(0, 3), rgb('#1d4ed8'));
    });

    it('is deterministic: the same request builds the same assets, at the same URLs, with the same bytes', async () => {
      const first = (await built(generate('display_300x250'))).creative_manifest;
      const second = (await built(generate('display_300x250'))).creative_manifest;
      assert.deepEqual(second, first);
      assert.deepEqual(await fetchPng(second.assets.banner_image.url), await fetchPng(first.assets.banner_image.url));
    });

    it('replays a retried request with its idempotency key, and refuses the key with another payload', async () => {
      const args = generate('display_728x90');
      const first = await built(args);
      assert.equal(first.replayed, false);
      const again = await built(args);
      assert.equal(again.replayed, true);
      assert.deepEqual(again.creative_manifest, first.creative_manifest);
      const { error } = await call({ ...args, message: 'shorter' });
      assert.equal(error.code, 'IDEMPOTENCY_CONFLICT');
    });

    it('includes a working preview when asked: the hosted page and a snapshot of the generated banner', async () => {
      const answer = await built(generate('display_300x250', { include_preview: true, preview_quality: 'production' }));
      const [preview] = answer.preview.previews as Json[];
      const render = preview!.renders[0];
      assert.ok(Date.parse(answer.preview.expires_at) - clock.now().getTime() === 3600 * 1000);
      const page = await fetch(render.preview_url);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type')!, /^text\/html/);
      assert.ok(
        (await page.text()).includes(answer.creative_manifest.assets.banner_image.url),
        'the page shows the generated image',
      );
      const snapshot = await fetchPng(render.snapshot_url);
      assert.deepEqual(pngSize(snapshot), { width: 300, height: 250 });
      assert.deepEqual(
        pixel(snapshot, 2, 2).slice(0, 3),
        rgb(primary),
        'the snapshot drew the stored image, not a placeholder',
      );

      const inline = await built(
        generate('native_in_feed', {
          include_preview: true,
          preview_output_format: 'html',
          preview_inputs: [{ name: 'Mobile', macros: { DEVICE_TYPE: 'mobile' } }],
        }),
      );
      const [variant] = inline.preview.previews as Json[];
      assert.equal(variant!.input.name, 'Mobile');
      assert.ok(variant!.renders[0].preview_html.includes('Summit Roast Winter Blend'));
    });

    it('previews what it built with preview_creative', async () => {
      const { creative_manifest: manifest } = await built(generate('html5_300x250'));
      const result = (await client.callTool({
        name: 'preview_creative',
        arguments: { request_type: 'single', creative_manifest: manifest },
      })) as Json;
      assert.equal(result.isError, undefined, result.content[0].text);
      const answer = JSON.parse(result.content[0].text as string) as Json;
      assert.equal((await fetch(answer.previews[0].renders[0].preview_url)).status, 200);
    });

    it('serves assets by digest only: 404 for an unknown one or the wrong extension, 304 when the client has it', async () => {
      const { creative_manifest: manifest } = await built(generate('display_320x50'));
      const url = manifest.assets.banner_image.url as string;
      const etag = (await fetch(url)).headers.get('etag')!;
      assert.equal((await fetch(url, { headers: { 'if-none-match': etag } })).status, 304);
      for (const missing of [
        url.replace(/\.png$/, '.xml'),
        `${server.url}/creative/assets/${'0'.repeat(64)}.png`,
        `${server.url}/creative/assets/not-a-digest.png`,
      ]) {
        const res = await fetch(missing);
        assert.equal(res.status, 404, missing);
        assert.deepEqual(await res.json(), { error: 'not_found', message: 'No such asset.' }, missing);
      }
    });

    it('declares generation and transformation in its capabilities', async () => {
      const result = (await client.callTool({ name: 'get_ap_capabilities', arguments: {} })) as Json;
      const capabilities = JSON.parse(result.content[0].text as string) as Json;
      assert.deepEqual(
        validateSchema('/schemas/3.0.6/protocol/get-ap-capabilities-response.json', capabilities).errors,
        [],
      );
      assert.deepEqual(capabilities.supported_protocols, ['creative']);
      assert.deepEqual(
        capabilities.specialisms,
        [],
        'creative-generative needs sync_catalogs, which it does not serve',
      );
      assert.deepEqual(capabilities.creative, {
        supports_compliance: false,
        has_creative_library: false,
        supports_generation: true,
        supports_transformation: true,
      });
      assert.deepEqual(capabilities.tasks, [
        'get_ap_capabilities',
        'list_creative_formats',
        'build_creative',
        'preview_creative',
      ]);
    });

    it('answers over plain HTTP in the creative envelope: the manifest, or {error} with 400, 404 and 422', async () => {
      const ok = await post(generate('display_300x250'));
      assert.equal(ok.status, 200);
      meetsFormat((await json(ok)).creative_manifest);

      const errorOf = async (body: Json, status: number, code: string) => {
        const res = await post(body);
        assert.equal(res.status, status, `${code}: ${res.status}`);
        const answer = await json(res);
        assert.deepEqual(Object.keys(answer), ['status', 'error']);
        assert.equal(answer.error.code, code);
        const mcp = await call(body);
        assert.equal(mcp.error.code, code, 'the same over MCP');
        return answer.error;
      };
      await errorOf(
        { ...generate('display_300x250'), target_format_id: formatId('display_1x1') },
        404,
        'FORMAT_NOT_SUPPORTED',
      );
      await errorOf(
        {
          ...generate('display_300x250'),
          target_format_id: { agent_url: 'https://elsewhere.example/mcp', id: 'display_300x250' },
        },
        404,
        'FORMAT_NOT_SUPPORTED',
      );
      const bare = await errorOf(
        { ...generate('display_300x250'), target_format_id: 'display_300x250' },
        400,
        'INVALID_FORMAT_ID',
      );
      assert.equal(bare.field, 'target_format_id');
      assert.equal(
        (
          await errorOf(
            { ...generate('display_300x250'), target_format_ids: ['display_728x90'] },
            400,
            'INVALID_FORMAT_ID',
          )
        ).field,
        'target_format_ids[0]',
      );
      await errorOf(
        { ...generate('display_300x250'), target_format_ids: [formatId('display_728x90')] },
        400,
        'INVALID_REQUEST',
      );
      await errorOf(
        { idempotency_key: randomUUID(), target_format_id: formatId('display_300x250') },
        400,
        'INVALID_REQUEST',
      );
      await errorOf({ ...generate('display_300x250'), creative_id: 'cr-1' }, 422, 'UNSUPPORTED_FEATURE');

      const wrongSize = {
        format_id: formatId('display_300x250'),
        assets: { banner_image: { asset_type: 'image', url: `${imageHost}/red-300x250.png`, width: 320, height: 50 } },
      };
      const invalid = await errorOf(
        { idempotency_key: randomUUID(), creative_manifest: wrongSize, target_format_id: formatId('display_728x90') },
        422,
        'VALIDATION_ERROR',
      );
      assert.deepEqual(
        [...new Set(invalid.details.assets.map((a: Json) => a.asset_id))].sort(),
        ['banner_image', 'click_url'],
        'each failing asset of the manifest to transform',
      );

      const noLanding = generate(
        'display_300x250',
        {},
        { promoted_offerings: { ...promoted({ url: undefined }), inline_offerings: [{ name: 'Summit Roast' }] } },
      );
      const missing = await errorOf(noLanding, 422, 'VALIDATION_ERROR');
      assert.deepEqual(
        [missing.details.assets[0].asset_id, missing.field],
        ['click_url', 'creative_manifest.assets.promoted_offerings.brand_manifest.url'],
      );

      const badColour = generate(
        'display_300x250',
        {},
        { promoted_offerings: promoted({ colors: { primary: 'forest' } }) },
      );
      assert.equal(
        (await errorOf(badColour, 422, 'VALIDATION_ERROR')).field,
        'creative_manifest.assets.promoted_offerings.brand_manifest.colors.primary',
      );

      const elsewhere = { agent_url: 'https://elsewhere.example/mcp', id: 'custom_unit' };
      const empty = {
        idempotency_key: randomUUID(),
        target_format_id: formatId('display_300x250'),
        creative_manifest: { format_id: elsewhere, assets: {} },
      };
      assert.equal(
        (await errorOf(empty, 422, 'VALIDATION_ERROR')).field,
        'creative_manifest.assets',
        'nothing to generate or transform from',
      );
    });

    it('fetches the buyer’s images before its transaction: a slow logo host holds up no other call', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      heldLogo = held;
      slowLogoAsked = new Promise<void>((resolve) => (slowAsked = resolve));
      const args = generate('display_300x250', {}, {});
      args.creative_manifest.assets.promoted_offerings.brand_manifest.logos = [{ url: `${imageHost}/slow-logo.png` }];
      const building = call(args);
      await slowLogoAsked;
      // The build is waiting on the logo host; on PGlite a transaction it held would stall this.
      const other = await call({
        idempotency_key: randomUUID(),
        target_format_id: formatId('display_728x90'),
        creative_manifest: minimal('display_728x90'),
      });
      assert.equal(other.error, undefined, 'another build went through meanwhile');
      release();
      const answer = await building;
      assert.equal(answer.error, undefined, JSON.stringify(answer.error));
      meetsFormat(answer.creative_manifest);
      const png = await fetchPng(answer.creative_manifest.assets.banner_image.url);
      const magenta = [...Array(40).keys()].some(
        (x) =>
          pixel(png, 100 + x, 40)
            .slice(0, 3)
            .join() === '255,0,255',
      );
      assert.ok(magenta, 'the slow logo arrived in time to be drawn (the other call did not wait for it)');
    });
  });
}
