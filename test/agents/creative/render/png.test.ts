import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createRenderer,
  hasSnapshot,
  NoSnapshotError,
  renderPng,
} from '../../../../src/agents/creative/render/index.ts';
import {
  countColor,
  daastFormat,
  format,
  html5Format,
  loaderOf,
  manifest,
  pixel,
  pngSize,
  solidPng,
  vastFormat,
} from './fixtures.ts';

const red = solidPng(300, 250, '#ff0000');
const green = solidPng(1200, 628, '#00aa00');
const blue = solidPng(100, 100, '#0000ff');
const noImages = loaderOf({});

const banner = (id: string, url = 'https://cdn.test/banner.png') => {
  const f = format(id);
  return [
    f,
    manifest(f, {
      banner_image: { asset_type: 'image', url },
      click_url: { asset_type: 'url', url: 'https://brand.test/' },
    }),
  ] as const;
};

const nativeAssets = (headline: string) => ({
  headline: { asset_type: 'text', content: headline },
  body: { asset_type: 'text', content: 'Fresh bread every morning, from ovens lit at four.' },
  main_image: { asset_type: 'image', url: 'https://cdn.test/hero.png' },
  sponsor_name: { asset_type: 'text', content: 'Bakery & <Sons>' },
  logo: { asset_type: 'image', url: 'https://cdn.test/logo.png' },
  cta: { asset_type: 'text', content: 'Order now' },
  click_url: { asset_type: 'url', url: 'https://brand.test/' },
});

describe('renderPng', () => {
  it('draws each display format at exactly its size', async () => {
    for (const id of [
      'display_300x250',
      'display_728x90',
      'display_320x50',
      'display_160x600',
      'display_300x600',
      'dooh_1920x1080',
    ]) {
      const [f, m] = banner(id);
      const png = await renderPng(f, m, { loadImage: noImages, size: { width: 50, height: 50 } });
      const { width, height } = f.renders![0]!.dimensions!;
      assert.deepEqual(pngSize(png), { width, height }, id);
    }
  });

  it('shows a banner’s image in its box', async () => {
    const [f, m] = banner('display_300x250');
    const png = await renderPng(f, m, { loadImage: loaderOf({ 'https://cdn.test/banner.png': red }) });
    assert.deepEqual(pngSize(png), { width: 300, height: 250 });
    for (const [x, y] of [
      [150, 125],
      [5, 5],
      [294, 244],
    ] as const)
      assert.deepEqual(pixel(png, x, y), [255, 0, 0, 255], `${x},${y}`);
  });

  it('scales an image of another size into the box', async () => {
    const [f, m] = banner('display_728x90');
    const png = await renderPng(f, m, { loadImage: loaderOf({ 'https://cdn.test/banner.png': red }) });
    assert.deepEqual(pngSize(png), { width: 728, height: 90 });
    assert.equal(countColor(png, [255, 0, 0], 0), 728 * 90);
  });

  it('draws a grey placeholder, never throwing, for an image missing, failing, or not an image', async () => {
    const loaders = {
      missing: noImages,
      throwing: async () => {
        throw new Error('connection refused');
      },
      html: async () => ({ bytes: new TextEncoder().encode('<html>not found</html>'), contentType: 'image/png' }),
      truncated: async () => ({ bytes: red.subarray(0, 20), contentType: 'image/png' }),
    };
    for (const [name, loadImage] of Object.entries(loaders)) {
      const [f, m] = banner('display_300x250');
      const png = await renderPng(f, m, { loadImage });
      assert.deepEqual(pngSize(png), { width: 300, height: 250 }, name);
      assert.deepEqual(pixel(png, 2, 2), [0xe5, 0xe7, 0xeb, 255], name);
    }
    const [f, m] = banner('display_300x250', 'javascript:alert(1)');
    const calls: string[] = [];
    await renderPng(f, m, { loadImage: loaderOf({}, calls) });
    assert.deepEqual(calls, [], 'an unsafe URL is never loaded');
  });

  it('uses a data: image in the manifest without loading anything', async () => {
    const [f, m] = banner('display_300x250', `data:image/png;base64,${Buffer.from(red).toString('base64')}`);
    const calls: string[] = [];
    const png = await renderPng(f, m, { loadImage: loaderOf({}, calls) });
    assert.deepEqual(pixel(png, 150, 125), [255, 0, 0, 255]);
    assert.deepEqual(calls, []);
  });

  it('lays out a native card with its images and texts', async () => {
    const f = format('native_in_feed');
    const loadImage = loaderOf({ 'https://cdn.test/hero.png': green, 'https://cdn.test/logo.png': blue });
    const png = await renderPng(f, manifest(f, nativeAssets('Warm loaves')), {
      loadImage,
      size: { width: 400, height: 420 },
    });
    assert.deepEqual(pngSize(png), { width: 400, height: 420 });
    assert.deepEqual(pixel(png, 200, 56 + 104), [0, 0xaa, 0, 255], 'the main image across the card, below the header');
    assert.deepEqual(pixel(png, 28, 28), [0, 0, 255, 255], 'the logo at the top left');
    assert.ok(countColor(png, [0x1d, 0x4e, 0xd8]) > 1000, 'the call-to-action button');
    assert.ok(countColor(png, [0x11, 0x18, 0x27], 60) > 200, 'dark headline and sponsor text');
  });

  it('wraps and cuts long text to the card, whose natural height fits its content', async () => {
    const f = format('native_in_feed');
    const long = await renderPng(
      f,
      manifest(
        f,
        nativeAssets('A headline far too long to fit on two lines of a card this narrow, however it is wrapped'),
      ),
      { loadImage: noImages },
    );
    const short = await renderPng(f, manifest(f, nativeAssets('Warm loaves')), { loadImage: noImages });
    assert.equal(pngSize(long).width, 300);
    assert.equal(
      pngSize(long).height - pngSize(short).height,
      22,
      'two headline lines at most, one line higher than one',
    );
  });

  it('shows an HTML5 creative’s backup image, else a frame naming the format', async () => {
    const withBackup = manifest(html5Format, {
      creative_html: { asset_type: 'html', content: '<p>hi</p>' },
      backup_image: { asset_type: 'image', url: 'https://cdn.test/backup.png' },
    });
    const backup = await renderPng(html5Format, withBackup, {
      loadImage: loaderOf({ 'https://cdn.test/backup.png': red }),
    });
    assert.deepEqual(pixel(backup, 150, 125), [255, 0, 0, 255]);
    const frame = await renderPng(
      html5Format,
      manifest(html5Format, { creative_html: { asset_type: 'html', content: '<p>hi</p>' } }),
      { loadImage: noImages },
    );
    assert.deepEqual(pngSize(frame), { width: 300, height: 250 });
    assert.deepEqual(pixel(frame, 10, 10), [0xf3, 0xf4, 0xf6, 255]);
    assert.ok(countColor(frame, [0x11, 0x18, 0x27], 60) > 100, 'the format’s name');
  });

  it('refuses video and audio formats with NoSnapshotError', async () => {
    for (const f of [format('video_30s'), format('audio_30s'), vastFormat, daastFormat]) {
      assert.equal(hasSnapshot(f), false);
      await assert.rejects(
        renderPng(f, manifest(f, {}), { loadImage: noImages }),
        (err: unknown) =>
          err instanceof NoSnapshotError && err.code === 'NO_SNAPSHOT' && err.message.includes(f.format_id.id),
      );
    }
    assert.equal(hasSnapshot(format('native_in_feed')), true);
  });

  it('loads an image once for snapshots rendered together', async () => {
    const renderer = createRenderer();
    const calls: string[] = [];
    const loadImage = loaderOf({ 'https://cdn.test/banner.png': red }, calls);
    const [f, m] = banner('display_300x250');
    const pngs = await Promise.all(Array.from({ length: 10 }, () => renderer.renderPng(f, m, { loadImage })));
    assert.deepEqual(calls, ['https://cdn.test/banner.png']);
    for (const png of pngs) assert.deepEqual(pixel(png, 150, 125), [255, 0, 0, 255]);
    await renderer.renderPng(f, m, { loadImage });
    assert.equal(calls.length, 2, 'nothing is kept once the load settled');
  });

  it('renders the same bytes for the same creative', async () => {
    const f = format('native_in_feed');
    const loadImage = loaderOf({ 'https://cdn.test/hero.png': green, 'https://cdn.test/logo.png': blue });
    const a = await renderPng(f, manifest(f, nativeAssets('Same')), { loadImage });
    const b = await renderPng(f, manifest(f, nativeAssets('Same')), { loadImage });
    assert.deepEqual(a, b);
  });
});
