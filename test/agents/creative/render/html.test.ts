import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { renderHtml } from '../../../../src/agents/creative/render/index.ts';
import { daastFormat, format, html5Format, manifest, vastFormat } from './fixtures.ts';

const banner = format('display_300x250');
const native = format('native_in_feed');

const bannerManifest = (click: string, image = 'https://cdn.test/banner.png') =>
  manifest(banner, {
    banner_image: { asset_type: 'image', url: image, width: 300, height: 250 },
    click_url: { asset_type: 'url', url: click },
  });

const nativeManifest = (headline: string, click = 'https://brand.test/') =>
  manifest(native, {
    headline: { asset_type: 'text', content: headline },
    body: { asset_type: 'text', content: 'Fresh bread every morning.' },
    main_image: { asset_type: 'image', url: 'https://cdn.test/hero.jpg', width: 1200, height: 628 },
    sponsor_name: { asset_type: 'text', content: 'Bakery & Sons' },
    logo: { asset_type: 'image', url: 'https://cdn.test/logo.png', width: 100, height: 100 },
    cta: { asset_type: 'text', content: 'Order now' },
    click_url: { asset_type: 'url', url: click },
  });

/** The values of an attribute across the page, decoded as a browser would read them. */
const attributes = (html: string, name: string) =>
  [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((m) =>
    m[1]!
      .replaceAll('&amp;', '&')
      .replaceAll('&quot;', '"')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&#39;', "'"),
  );

describe('renderHtml', () => {
  it('shows a banner image at exactly the format’s size, linked to its clickthrough', () => {
    const { html, width, height } = renderHtml(banner, bannerManifest('https://brand.test/landing'), {
      size: { width: 999, height: 999 },
    });
    assert.deepEqual({ width, height }, { width: 300, height: 250 });
    assert.match(html, /^<!doctype html>/);
    assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    assert.match(html, /\.ad\{[^}]*width:300px;height:250px/);
    assert.match(html, /\.fill\{[^}]*width:300px;height:250px/);
    assert.match(html, /html,body\{margin:0;padding:0/);
    assert.match(
      html,
      /<a class="ad" href="https:\/\/brand\.test\/landing" target="_blank" rel="noopener noreferrer"><img class="fill" src="https:\/\/cdn\.test\/banner\.png" alt="/,
    );
  });

  it('allows no script and only its own style block', () => {
    const { html } = renderHtml(banner, bannerManifest('https://brand.test/'));
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    assert.ok(policy);
    assert.match(policy, /default-src 'none'/);
    assert.doesNotMatch(policy, /script-src|unsafe-inline/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    assert.ok(policy.includes(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`), policy);
    assert.doesNotMatch(html, /<script|\sstyle="/);
  });

  it('escapes a hostile headline and drops a javascript: clickthrough', () => {
    const { html } = renderHtml(native, nativeManifest('<script>alert(1)</script>', 'javascript:alert(1)'));
    assert.doesNotMatch(html, /<script>alert/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.doesNotMatch(html, /javascript:/i);
    assert.doesNotMatch(html, /<a /, 'no link without a safe clickthrough');
    assert.match(html, /Bakery &amp; Sons/);
  });

  it('drops every URL that is not http(s), whatever its spelling, and data: but for raster images', () => {
    for (const click of [
      'JaVaScRiPt:alert(1)',
      ' java\tscript:alert(1)',
      'vbscript:x',
      'data:text/html,<script>x</script>',
      '//evil.test/',
      '/relative',
      'ftp://files.test/',
    ]) {
      const { html } = renderHtml(banner, bannerManifest(click));
      assert.deepEqual(attributes(html, 'href'), [], click);
    }
    const dataImage = 'data:image/png;base64,iVBORw0KGgo=';
    assert.deepEqual(attributes(renderHtml(banner, bannerManifest('https://b.test/', dataImage)).html, 'src'), [
      dataImage,
    ]);
    assert.deepEqual(
      attributes(
        renderHtml(banner, bannerManifest('https://b.test/', 'data:image/svg+xml;base64,PHN2Zz4=')).html,
        'src',
      ),
      [],
    );
    assert.deepEqual(attributes(renderHtml(banner, bannerManifest('http://b.test/ok')).html, 'href'), [
      'http://b.test/ok',
    ]);
  });

  it('fills in macros, URL-encoded in URLs and as written in text, and leaves unknown ones', () => {
    const m = nativeManifest(
      'For {DEVICE_TYPE} in {CITY}',
      'https://brand.test/c?d={DEVICE_TYPE}&w={AD_WIDTH}&h={AD_HEIGHT}&x={NOT_A_MACRO}&cb={CACHEBUSTER}&s=${DOMAIN}',
    );
    const { html } = renderHtml(native, m, {
      macros: { DEVICE_TYPE: 'mobile & tablet', DOMAIN: 'news.test/a b' },
      size: { width: 400, height: 500 },
    });
    const [href] = attributes(html, 'href');
    const cachebuster = /cb=(\d{8})&/.exec(href!)?.[1];
    assert.ok(cachebuster, href);
    assert.equal(
      href,
      `https://brand.test/c?d=mobile%20%26%20tablet&w=400&h=500&x={NOT_A_MACRO}&cb=${cachebuster}&s=news.test%2Fa%20b`,
    );
    assert.ok(
      html.includes('<div>For mobile &amp; tablet in {CITY}</div>'),
      'macros in text as written, unknown ones kept',
    );
    assert.equal(
      renderHtml(native, m, { size: { width: 400, height: 500 } }).html.match(/cb=(\d{8})/)?.[1],
      cachebuster,
      'the same manifest, the same cache buster',
    );
    assert.notEqual(
      renderHtml(native, nativeManifest('Other', m.assets.click_url!.url)).html.match(/cb=(\d{8})/)?.[1],
      cachebuster,
    );
    assert.match(renderHtml(native, m, { macros: { CACHEBUSTER: '123' } }).html, /cb=123&/);
  });

  it('lays out a native card with every piece, at the size asked for within the format’s bounds', () => {
    const asked = renderHtml(native, nativeManifest('Warm loaves'), { size: { width: 480, height: 420 } });
    assert.deepEqual({ width: asked.width, height: asked.height }, { width: 480, height: 420 });
    for (const text of ['Warm loaves', 'Fresh bread every morning.', 'Bakery &amp; Sons', 'Order now', 'Sponsored'])
      assert.ok(asked.html.includes(text), text);
    assert.deepEqual(attributes(asked.html, 'src'), ['https://cdn.test/logo.png', 'https://cdn.test/hero.jpg']);
    assert.match(asked.html, /\.ad\{[^}]*width:480px;height:420px/);
    const narrow = renderHtml(native, nativeManifest('Warm loaves'), { size: { width: 100, height: 420 } });
    assert.equal(narrow.width, 300, 'not narrower than the format’s min_width');
    const natural = renderHtml(native, nativeManifest('Warm loaves'));
    assert.equal(natural.width, 300);
    assert.ok(
      natural.height > 157 + 44 + 22 + 19 + 32,
      `room for image, header, headline, body and button: ${natural.height}`,
    );
  });

  it('cuts a headline too long for two lines with an ellipsis', () => {
    const { html } = renderHtml(native, nativeManifest('word '.repeat(60)));
    const headline = /<div class="n n-headline">(.*?)<\/div><\/div>/.exec(html)?.[1] ?? '';
    assert.equal(headline.split('<div>').length - 1, 2);
    assert.match(headline, /…$/);
  });

  it('puts an HTML5 creative in a sandboxed srcdoc frame at its size', () => {
    const m = manifest(html5Format, {
      creative_html: {
        asset_type: 'html',
        content: '<div id="x">"Hi" & {AD_WIDTH}</div><script>document.title="run"</script>',
      },
    });
    const { html, width, height } = renderHtml(html5Format, m);
    assert.deepEqual({ width, height }, { width: 300, height: 250 });
    const frame = /<iframe ([^>]*)>/.exec(html)?.[1] ?? '';
    assert.match(frame, /^class="fill" sandbox="allow-scripts" srcdoc="/);
    assert.match(frame, /width="300" height="250"/);
    const [srcdoc] = attributes(frame.replace(/^/, ' '), 'srcdoc');
    assert.match(
      srcdoc!,
      /^<!doctype html><html>.*<body><div id="x">"Hi" & 300<\/div><script>document.title="run"<\/script><\/body><\/html>$/,
    );
    assert.doesNotMatch(html.replace(/srcdoc="[^"]*"/, ''), /<script/);
  });

  it('plays a hosted video file, and a VAST tag’s media file, skipping VPAID', () => {
    const hosted = renderHtml(
      format('video_30s'),
      manifest(format('video_30s'), { video_file: { asset_type: 'video', url: 'https://cdn.test/ad.mp4' } }),
    );
    assert.deepEqual({ width: hosted.width, height: hosted.height }, { width: 640, height: 360 });
    assert.match(hosted.html, /<video class="fill" src="https:\/\/cdn\.test\/ad\.mp4" controls/);

    const vast = `<?xml version="1.0"?><VAST version="4.2"><Ad id="1"><InLine><Creatives><Creative><Linear><Duration>00:00:30</Duration><MediaFiles>
      <MediaFile delivery="progressive" type="application/javascript" apiFramework="VPAID"><![CDATA[https://cdn.test/vpaid.js]]></MediaFile>
      <MediaFile delivery="streaming" type="video/mp4"><![CDATA[https://cdn.test/stream.mp4]]></MediaFile>
      <MediaFile delivery="progressive" type="video/webm"><![CDATA[https://cdn.test/ad.webm]]></MediaFile>
      <MediaFile delivery="progressive" type="video/mp4" width="1280" height="720"><![CDATA[ https://cdn.test/ad.mp4?w={PLAYER_WIDTH}&cb={CACHEBUSTER} ]]></MediaFile>
    </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>`;
    const inline = renderHtml(
      vastFormat,
      manifest(vastFormat, { vast_tag: { asset_type: 'vast', delivery_type: 'inline', content: vast } }),
      { size: { width: 1280, height: 720 } },
    );
    assert.deepEqual({ width: inline.width, height: inline.height }, { width: 1280, height: 720 });
    assert.deepEqual(attributes(inline.html, 'src'), [attributes(inline.html, 'src')[0]!]);
    assert.match(attributes(inline.html, 'src')[0]!, /^https:\/\/cdn\.test\/ad\.mp4\?w=1280&cb=\d{8}$/);
  });

  it('names a VAST or DAAST tag by URL in a player frame, and says when there is nothing to play', () => {
    const byUrl = renderHtml(
      vastFormat,
      manifest(vastFormat, {
        vast_tag: { asset_type: 'vast', delivery_type: 'url', url: 'https://ads.test/vast?cb={CACHEBUSTER}' },
      }),
    );
    assert.match(byUrl.html, /VAST tag/);
    assert.match(attributes(byUrl.html, 'href')[0]!, /^https:\/\/ads\.test\/vast\?cb=\d{8}$/);
    assert.doesNotMatch(byUrl.html, /<video/);

    const wrapper = renderHtml(
      vastFormat,
      manifest(vastFormat, {
        vast_tag: {
          asset_type: 'vast',
          delivery_type: 'inline',
          content:
            '<VAST version="3.0"><Ad><Wrapper><VASTAdTagURI><![CDATA[https://ads.test/next]]></VASTAdTagURI></Wrapper></Ad></VAST>',
        },
      }),
    );
    assert.deepEqual(attributes(wrapper.html, 'href'), ['https://ads.test/next']);

    const empty = renderHtml(
      vastFormat,
      manifest(vastFormat, {
        vast_tag: {
          asset_type: 'vast',
          delivery_type: 'inline',
          content: '<VAST><Ad><InLine><MediaFile type="video/mp4">javascript:alert(1)</MediaFile></InLine></Ad></VAST>',
        },
      }),
    );
    assert.match(empty.html, /no media file a browser plays/);
    assert.doesNotMatch(empty.html, /javascript:/);

    const daast = `<DAAST version="1.0"><Ad><InLine><Creatives><Creative><Linear><MediaFiles><MediaFile delivery="progressive" type="audio/mpeg"><![CDATA[https://cdn.test/spot.mp3]]></MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad></DAAST>`;
    const audio = renderHtml(
      daastFormat,
      manifest(daastFormat, { daast_tag: { asset_type: 'daast', delivery_type: 'inline', content: daast } }),
    );
    assert.match(audio.html, /<audio src="https:\/\/cdn\.test\/spot\.mp3" controls/);
    assert.deepEqual({ width: audio.width, height: audio.height }, { width: 400, height: 100 });
  });

  it('plays a hosted audio file', () => {
    const f = format('audio_30s');
    const { html } = renderHtml(
      f,
      manifest(f, {
        audio_file: { asset_type: 'audio', url: 'https://cdn.test/spot.m4a' },
        click_url: { asset_type: 'url', url: 'https://brand.test/' },
      }),
    );
    assert.match(html, /<audio src="https:\/\/cdn\.test\/spot\.m4a" controls/);
    assert.match(html, /class="visit" href="https:\/\/brand\.test\/"/);
  });

  it('shows the DOOH screen image at the screen’s size, with no link', () => {
    const f = format('dooh_1920x1080');
    const { html, width, height } = renderHtml(
      f,
      manifest(f, {
        screen_image: { asset_type: 'image', url: 'https://cdn.test/screen.jpg', width: 1920, height: 1080 },
      }),
    );
    assert.deepEqual({ width, height }, { width: 1920, height: 1080 });
    assert.match(html, /<div class="ad"><img class="fill" src="https:\/\/cdn\.test\/screen\.jpg"/);
  });

  it('renders a manifest with nothing usable as a frame naming the format, never throwing', () => {
    for (const assets of [
      {},
      { banner_image: 'not an object' },
      { banner_image: { asset_type: 'image' } },
      { x: { asset_type: 'text', content: 42 } },
    ] as never[]) {
      const { html, width } = renderHtml(banner, manifest(banner, assets));
      assert.equal(width, 300);
      assert.match(html, /<\/html>\n$/);
    }
    assert.match(renderHtml({ ...banner, assets: [] }, manifest(banner, {})).html, /Medium Rectangle 300x250/);
  });
});
