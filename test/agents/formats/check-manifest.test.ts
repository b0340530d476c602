import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ManifestAsset } from '../../../src/agents/formats/index.ts';
import { manifestProblems, standardFormats, type Format } from '../../../src/agents/formats/index.ts';

const agentUrl = 'https://ap.example/creative/mcp';
const formats = standardFormats(agentUrl);
const format = (id: string) => formats.find((f) => f.format_id.id === id)!;

type Assets = Record<string, ManifestAsset>;
const problems = (f: Format | string, assets: Assets) =>
  manifestProblems(typeof f === 'string' ? format(f) : f, { assets });
const fields = (f: Format | string, assets: Assets) => problems(f, assets).map((p) => p.field);
const at = (path: string) => `creative_manifest.assets.${path}`;

const image = (url: string, width: number, height: number, more: Partial<ManifestAsset> = {}): ManifestAsset => ({
  asset_type: 'image',
  url,
  width,
  height,
  ...more,
});
const text = (content: string): ManifestAsset => ({ asset_type: 'text', content });
const link = (url: string): ManifestAsset => ({ asset_type: 'url', url });
const click = link('https://brand.example/landing?cb={CACHEBUSTER}');

const banner = (): Assets => ({ banner_image: image('https://cdn.example/b.png', 300, 250), click_url: click });
const native = (): Assets => ({
  headline: text('A headline'),
  body: text('Body text'),
  main_image: image('https://cdn.example/hero.jpg', 1200, 628),
  sponsor_name: text('Brand'),
  click_url: click,
});
const hostedVideo = (duration_ms = 15_000, more: Partial<ManifestAsset> = {}): Assets => ({
  video_file: {
    asset_type: 'video',
    url: 'https://cdn.example/spot.mp4',
    width: 1920,
    height: 1080,
    duration_ms,
    ...more,
  },
});
const vast = (fields: Partial<ManifestAsset>): Assets => ({ vast_tag: { asset_type: 'vast', ...fields } });
const daast = (fields: Partial<ManifestAsset>): Assets => ({ daast_tag: { asset_type: 'daast', ...fields } });
const html = (content: string): Assets => ({
  html_creative: { asset_type: 'html', content },
  backup_image: image('https://cdn.example/backup.gif', 300, 250),
  click_url: click,
});

/** A format with what no standard one has: a repeatable group, and JavaScript, CSS, markdown and print-sized assets. */
const carousel: Format = {
  format_id: { agent_url: agentUrl, id: 'carousel' },
  name: 'Carousel',
  assets: [
    {
      item_type: 'repeatable_group',
      asset_group_id: 'card',
      required: true,
      min_count: 2,
      max_count: 3,
      assets: [
        {
          asset_id: 'image',
          asset_type: 'image',
          required: true,
          requirements: { min_width: 300, max_width: 300, min_height: 300, max_height: 300 },
        },
        { asset_id: 'title', asset_type: 'text', required: true, requirements: { max_length: 10 } },
        { asset_id: 'badge', asset_type: 'text', required: false },
      ],
    },
    {
      item_type: 'repeatable_group',
      asset_group_id: 'extra',
      required: false,
      min_count: 2,
      max_count: 4,
      assets: [{ asset_id: 'note', asset_type: 'text', required: true }],
    },
    {
      item_type: 'individual',
      asset_id: 'script',
      asset_type: 'javascript',
      required: false,
      requirements: { max_file_size_kb: 1 },
    },
    {
      item_type: 'individual',
      asset_id: 'style',
      asset_type: 'css',
      required: false,
      requirements: { max_file_size_kb: 1 },
    },
    {
      item_type: 'individual',
      asset_id: 'story',
      asset_type: 'markdown',
      required: false,
      requirements: { max_length: 5 },
    },
    {
      item_type: 'individual',
      asset_id: 'print',
      asset_type: 'image',
      required: false,
      requirements: { min_width: 8, max_width: 8, unit: 'inches' },
    },
    {
      item_type: 'individual',
      asset_id: 'landing',
      asset_type: 'url',
      required: false,
      requirements: { protocols: ['https', 'http'], max_length: 30 },
    },
  ],
};
const card = (index: number, title = `Card ${index}`): Assets => ({
  [`card_${index}_image`]: image(`https://cdn.example/${index}.png`, 300, 300),
  [`card_${index}_title`]: text(title),
});

describe('manifestProblems', () => {
  it('finds nothing wrong with complete manifests of the standard formats', () => {
    const valid: Array<[string, Assets]> = [
      ['display_300x250', banner()],
      ['display_970x250', { banner_image: image('https://cdn.example/b.webp', 970, 250), click_url: click }],
      [
        'display_responsive',
        {
          landscape_image: image('https://cdn.example/l.jpg', 1200, 628),
          headline: text('Shop now'),
          description: text('All of it'),
          business_name: text('Brand'),
          click_url: click,
        },
      ],
      ['html5_300x250', html('<!doctype html><html><body>Ad</body></html>')],
      [
        'native_in_feed',
        { ...native(), logo: image('https://cdn.example/logo.png', 100, 100), cta: text('Learn more') },
      ],
      ['video_15s', hostedVideo()],
      ['video_6s_bumper', hostedVideo(6000)],
      [
        'video_vast_30s',
        vast({ delivery_type: 'url', url: 'https://ads.example/vast.xml?cb={CACHEBUSTER}', duration_ms: 30_000 }),
      ],
      [
        'video_vast_15s',
        vast({
          delivery_type: 'inline',
          content: '<?xml version="1.0"?><!-- served by x --><VAST version="4.2"><Ad/></VAST>',
        }),
      ],
      ['ctv_video_30s', hostedVideo(30_000)],
      ['audio_30s', { audio_file: { asset_type: 'audio', url: 'https://cdn.example/spot.mp3', duration_ms: 30_000 } }],
      ['audio_15s', { audio_file: { asset_type: 'audio', url: 'https://cdn.example/spot.m4a', duration_ms: 15_200 } }],
      ['audio_daast_30s', daast({ content: '<DAAST version="1.0"><Ad/></DAAST>' })],
      [
        'dooh_1080x1920',
        {
          screen_image: image('https://cdn.example/portrait.jpg', 1080, 1920),
          impression_tracker: link('https://track.example/pop?ts={TIMESTAMP}'),
        },
      ],
    ];
    for (const [id, assets] of valid) assert.deepEqual(problems(id, assets), [], id);
    assert.deepEqual(
      problems({ format_id: { agent_url: agentUrl, id: 'bare' }, name: 'Bare' }, {}),
      [],
      'a format without assets asks for none',
    );
  });

  describe('presence and type', () => {
    it('names each required asset missing, at its field, and asks nothing of optional ones', () => {
      assert.deepEqual(problems('display_300x250', {}), [
        {
          asset_id: 'banner_image',
          field: at('banner_image'),
          message: 'Format display_300x250 requires the image asset banner_image.',
        },
        {
          asset_id: 'click_url',
          field: at('click_url'),
          message: 'Format display_300x250 requires the url asset click_url.',
        },
      ]);
      const { body: _body, ...noBody } = native();
      assert.deepEqual(fields('native_in_feed', noBody), [at('body')]);
      assert.deepEqual(fields('html5_728x90', { html_creative: { asset_type: 'html', content: '<div>' } }), [
        at('backup_image'),
        at('click_url'),
      ]);
    });

    it('names an asset given as another asset_type, without judging it further', () => {
      const wrong = problems('display_300x250', {
        ...banner(),
        banner_image: { asset_type: 'video', url: 'https://cdn.example/b.mp4', width: 1, height: 1 },
      });
      assert.deepEqual(wrong, [
        {
          asset_id: 'banner_image',
          field: at('banner_image.asset_type'),
          message: 'Asset banner_image of format display_300x250 is a image, not a video.',
        },
      ]);
    });

    it('judges an asset that states no asset_type as the format’s', () => {
      assert.deepEqual(
        fields('display_300x250', {
          ...banner(),
          banner_image: { url: 'https://cdn.example/b.png', width: 300, height: 250 },
        }),
        [],
      );
      assert.deepEqual(
        fields('display_300x250', {
          ...banner(),
          banner_image: { url: 'https://cdn.example/b.png', width: 301, height: 250 },
        }),
        [at('banner_image.width')],
      );
    });

    it('refuses an asset that is not an object', () => {
      for (const value of [null, 'https://cdn.example/b.png', ['x'], 3]) {
        assert.deepEqual(
          fields('display_300x250', { ...banner(), banner_image: value as unknown as ManifestAsset }),
          [at('banner_image')],
          JSON.stringify(value),
        );
      }
    });

    it('ignores assets the format does not name', () => {
      assert.deepEqual(
        fields('display_300x250', {
          ...banner(),
          brand_colors: { asset_type: 'text', content: 'red' },
          weird: 'x' as unknown as ManifestAsset,
        }),
        [],
      );
    });

    it('reads a manifest without an assets object as one without assets', () => {
      assert.deepEqual(fields('display_300x250', null as unknown as Assets), [at('banner_image'), at('click_url')]);
    });
  });

  describe('images', () => {
    it('holds exact sizes to both sides, naming the side at fault', () => {
      assert.deepEqual(
        problems('display_300x250', { ...banner(), banner_image: image('https://cdn.example/b.png', 320, 250) }),
        [
          {
            asset_id: 'banner_image',
            field: at('banner_image.width'),
            message: 'Asset banner_image is 320 pixels wide; the format wants exactly 300 pixels wide.',
          },
        ],
      );
      assert.deepEqual(
        fields('display_300x250', { ...banner(), banner_image: image('https://cdn.example/b.png', 300, 90) }),
        [at('banner_image.height')],
      );
      assert.deepEqual(
        fields('display_300x250', { ...banner(), banner_image: image('https://cdn.example/b.png', 728, 90) }),
        [at('banner_image.width'), at('banner_image.height')],
      );
    });

    it('holds minimum and maximum sizes', () => {
      assert.deepEqual(
        problems('native_in_feed', { ...native(), main_image: image('https://cdn.example/hero.jpg', 1000, 523) }).map(
          (p) => [p.field, p.message],
        ),
        [
          [at('main_image.width'), 'Asset main_image is 1000 pixels wide; the format wants at least 1200 pixels wide.'],
          [at('main_image.height'), 'Asset main_image is 523 pixels high; the format wants at least 627 pixels high.'],
        ],
      );
      assert.deepEqual(
        fields('native_in_feed', { ...native(), main_image: image('https://cdn.example/hero.jpg', 2400, 1256) }),
        [],
        'no maximum',
      );
      const maxed: Format = {
        format_id: { agent_url: agentUrl, id: 'small' },
        name: 'Small',
        assets: [
          {
            item_type: 'individual',
            asset_id: 'icon',
            asset_type: 'image',
            required: true,
            requirements: { max_width: 64, max_height: 64 },
          },
        ],
      };
      assert.deepEqual(fields(maxed, { icon: image('https://cdn.example/i.png', 65, 64) }), [at('icon.width')]);
      assert.deepEqual(fields(maxed, { icon: image('https://cdn.example/i.png', 64, 64) }), []);
    });

    it('holds the aspect ratio within a percent', () => {
      assert.deepEqual(
        fields('native_in_feed', { ...native(), main_image: image('https://cdn.example/hero.jpg', 1200, 627) }),
        [],
      );
      assert.deepEqual(
        problems('native_in_feed', { ...native(), main_image: image('https://cdn.example/hero.jpg', 1200, 800) }),
        [
          {
            asset_id: 'main_image',
            field: at('main_image'),
            message: 'Asset main_image is 1200x800, not of the 1.91:1 aspect ratio the format wants.',
          },
        ],
      );
      assert.deepEqual(
        fields('native_in_feed', { ...native(), logo: image('https://cdn.example/logo.png', 200, 100) }),
        [at('logo')],
      );
    });

    it('holds the file format the manifest states, else the one its URL’s extension tells', () => {
      const withImage = (url: string, more: Partial<ManifestAsset> = {}) =>
        fields('display_300x250', { ...banner(), banner_image: image(url, 300, 250, more) });
      assert.deepEqual(withImage('https://cdn.example/b.tiff'), [at('banner_image.url')]);
      assert.deepEqual(withImage('https://cdn.example/b.svg?v=2#x'), [at('banner_image.url')]);
      assert.deepEqual(withImage('https://cdn.example/b.JPEG'), [], 'jpeg is jpg, in any case');
      assert.deepEqual(withImage('https://cdn.example/b.png?file=x.tiff'), [], 'the query is not the file');
      assert.deepEqual(withImage('https://cdn.example/render?id=42'), [], 'no extension, nothing to hold against it');
      assert.deepEqual(withImage('https://cdn.example/b.php'), [], 'an extension that names no image format');
      assert.deepEqual(withImage('https://cdn.example/b.png', { format: 'svg' }), [at('banner_image.format')]);
      assert.deepEqual(withImage('https://cdn.example/b.bin', { format: 'JPEG' }), []);
      assert.match(
        problems('display_300x250', { ...banner(), banner_image: image('https://cdn.example/b.tiff', 300, 250) })[0]!
          .message,
        /is a \.tiff file; the format accepts jpg, png, gif, webp/,
      );
    });

    it('holds the file size the manifest states', () => {
      assert.deepEqual(
        fields('display_300x250', {
          ...banner(),
          banner_image: image('https://cdn.example/b.png', 300, 250, { file_size_bytes: 150 * 1024 }),
        }),
        [],
      );
      assert.deepEqual(
        fields('display_300x250', {
          ...banner(),
          banner_image: image('https://cdn.example/b.png', 300, 250, { file_size_bytes: 150 * 1024 + 1 }),
        }),
        [at('banner_image.file_size_bytes')],
      );
    });

    it('needs a url, and leaves print sizes alone', () => {
      assert.deepEqual(
        fields('display_300x250', { ...banner(), banner_image: { asset_type: 'image', width: 300, height: 250 } }),
        [at('banner_image.url')],
      );
      assert.deepEqual(
        fields(carousel, { ...card(0), ...card(1), print: image('https://cdn.example/flyer.pdf', 2400, 3000) }),
        [],
      );
    });
  });

  describe('texts', () => {
    it('holds minimum and maximum lengths, counting characters as people do', () => {
      assert.deepEqual(problems('native_in_feed', { ...native(), headline: text('x'.repeat(51)) }), [
        {
          asset_id: 'headline',
          field: at('headline.content'),
          message: 'Asset headline is 51 characters long; the format wants at most 50 characters long.',
        },
      ]);
      assert.deepEqual(fields('native_in_feed', { ...native(), headline: text('x'.repeat(50)) }), []);
      assert.deepEqual(
        fields('native_in_feed', { ...native(), headline: text('🎉'.repeat(50)) }),
        [],
        'fifty emoji are fifty characters',
      );
      assert.deepEqual(fields('native_in_feed', { ...native(), headline: text('') }), [at('headline.content')]);
      assert.deepEqual(fields('native_in_feed', { ...native(), cta: text('Click here right now') }), [
        at('cta.content'),
      ]);
      assert.deepEqual(
        fields(carousel, { ...card(0), ...card(1), story: { asset_type: 'markdown', content: '**bold**' } }),
        [at('story.content')],
      );
    });

    it('needs content', () => {
      assert.deepEqual(problems('native_in_feed', { ...native(), body: { asset_type: 'text' } }), [
        { asset_id: 'body', field: at('body.content'), message: 'Asset body has no content.' },
      ]);
    });
  });

  describe('URLs', () => {
    it('holds the protocols the format accepts', () => {
      assert.deepEqual(problems('display_300x250', { ...banner(), click_url: link('http://brand.example/landing') }), [
        {
          asset_id: 'click_url',
          field: at('click_url.url'),
          message: 'Asset click_url uses http; the format accepts https only.',
        },
      ]);
      assert.deepEqual(
        fields('display_300x250', { ...banner(), click_url: link('HTTPS://brand.example/landing') }),
        [],
      );
      assert.deepEqual(fields('display_300x250', { ...banner(), impression_tracker: link('javascript:alert(1)') }), [
        at('impression_tracker.url'),
      ]);
      assert.deepEqual(
        fields(carousel, { ...card(0), ...card(1), landing: link('http://b.example/') }),
        [],
        'a format may accept http',
      );
    });

    it('needs an absolute URL', () => {
      assert.deepEqual(fields('display_300x250', { ...banner(), click_url: link('/landing') }), [at('click_url.url')]);
      assert.deepEqual(fields('display_300x250', { ...banner(), click_url: { asset_type: 'url' } }), [
        at('click_url.url'),
      ]);
    });

    it('holds the maximum length', () => {
      const base = 'https://brand.example/';
      assert.deepEqual(
        fields('display_300x250', { ...banner(), click_url: link(base + 'x'.repeat(2048 - base.length)) }),
        [],
      );
      assert.deepEqual(
        fields('display_300x250', { ...banner(), click_url: link(base + 'x'.repeat(2049 - base.length)) }),
        [at('click_url.url')],
      );
      assert.deepEqual(
        fields(carousel, { ...card(0), ...card(1), landing: link('https://brand.example/a-long-path') }),
        [at('landing.url')],
      );
    });
  });

  describe('video and audio', () => {
    it('holds durations to the format’s window', () => {
      assert.deepEqual(problems('video_15s', hostedVideo(20_000)), [
        {
          asset_id: 'video_file',
          field: at('video_file.duration_ms'),
          message: 'Asset video_file is 20 s long; the format wants at most 15.5 s long.',
        },
      ]);
      assert.deepEqual(fields('video_15s', hostedVideo(14_400)), [at('video_file.duration_ms')]);
      assert.deepEqual(fields('video_15s', hostedVideo(15_500)), []);
      assert.deepEqual(fields('video_6s_bumper', hostedVideo(15_000)), [at('video_file.duration_ms')]);
      assert.deepEqual(
        fields('audio_30s', {
          audio_file: { asset_type: 'audio', url: 'https://cdn.example/a.mp3', duration_ms: 15_000 },
        }),
        [at('audio_file.duration_ms')],
      );
      assert.deepEqual(
        fields('audio_30s', { audio_file: { asset_type: 'audio', url: 'https://cdn.example/a.mp3' } }),
        [],
        'no duration stated, none held against it',
      );
    });

    it('holds video sizes and aspect ratio', () => {
      assert.deepEqual(fields('video_15s', hostedVideo(15_000, { width: 640, height: 360 })), [
        at('video_file.width'),
        at('video_file.height'),
      ]);
      assert.deepEqual(fields('video_15s', hostedVideo(15_000, { width: 1440, height: 1080 })), [at('video_file')]);
      assert.deepEqual(fields('ctv_video_30s', hostedVideo(30_000, { width: 3840, height: 2160 })), [
        at('video_file.width'),
        at('video_file.height'),
      ]);
    });

    it('holds containers and audio formats, stated or by extension', () => {
      assert.deepEqual(fields('video_15s', hostedVideo(15_000, { url: 'https://cdn.example/spot.mov' })), [
        at('video_file.url'),
      ]);
      assert.deepEqual(fields('video_15s', hostedVideo(15_000, { url: 'https://cdn.example/spot.m4v' })), []);
      assert.deepEqual(
        fields('video_15s', hostedVideo(15_000, { url: 'https://cdn.example/spot.mov', container_format: 'webm' })),
        [],
      );
      assert.deepEqual(fields('ctv_video_30s', hostedVideo(30_000, { container_format: 'webm' })), [
        at('video_file.container_format'),
      ]);
      assert.deepEqual(fields('audio_30s', { audio_file: { asset_type: 'audio', url: 'https://cdn.example/a.wav' } }), [
        at('audio_file.url'),
      ]);
      assert.deepEqual(
        fields('audio_30s', { audio_file: { asset_type: 'audio', url: 'https://cdn.example/a.aac' } }),
        [],
      );
      assert.deepEqual(
        fields('audio_30s', {
          audio_file: { asset_type: 'audio', url: 'https://cdn.example/a', container_format: 'ogg' },
        }),
        [at('audio_file.container_format')],
      );
    });

    it('holds file sizes and needs a url', () => {
      assert.deepEqual(fields('video_15s', hostedVideo(15_000, { file_size_bytes: 51_200 * 1024 + 1 })), [
        at('video_file.file_size_bytes'),
      ]);
      assert.deepEqual(
        fields('audio_30s', {
          audio_file: { asset_type: 'audio', url: 'https://cdn.example/a.mp3', file_size_bytes: 10_240 * 1024 + 1 },
        }),
        [at('audio_file.file_size_bytes')],
      );
      assert.deepEqual(fields('audio_30s', { audio_file: { asset_type: 'audio', duration_ms: 30_000 } }), [
        at('audio_file.url'),
      ]);
    });
  });

  describe('HTML, JavaScript and CSS', () => {
    it('hold the format’s size limit in bytes of UTF-8', () => {
      assert.deepEqual(fields('html5_300x250', html('x'.repeat(200 * 1024))), []);
      assert.deepEqual(problems('html5_300x250', html('x'.repeat(200 * 1024 + 1))), [
        {
          asset_id: 'html_creative',
          field: at('html_creative.content'),
          message: 'Asset html_creative is 204801 bytes; the format wants at most 200 KB (204800 bytes).',
        },
      ]);
      assert.deepEqual(
        fields('html5_300x250', html('é'.repeat(100 * 1024 + 1))),
        [at('html_creative.content')],
        'two bytes each',
      );
      assert.deepEqual(
        fields(carousel, {
          ...card(0),
          ...card(1),
          script: { asset_type: 'javascript', content: ';'.repeat(1025) },
          style: { asset_type: 'css', content: 'a{}' },
        }),
        [at('script.content')],
      );
      assert.deepEqual(
        fields(carousel, { ...card(0), ...card(1), style: { asset_type: 'css', content: ' '.repeat(1025) } }),
        [at('style.content')],
      );
    });

    it('need content', () => {
      assert.deepEqual(
        fields('html5_300x250', {
          ...html(''),
          html_creative: { asset_type: 'html', url: 'https://cdn.example/ad.html' },
        }),
        [at('html_creative.content')],
      );
    });

    it('judge the backup image of an HTML5 banner as an image of the banner’s size', () => {
      assert.deepEqual(
        fields('html5_300x250', {
          ...html('<div></div>'),
          backup_image: image('https://cdn.example/backup.webp', 300, 250),
        }),
        [at('backup_image.url')],
      );
      assert.deepEqual(
        fields('html5_300x250', {
          ...html('<div></div>'),
          backup_image: image('https://cdn.example/backup.png', 728, 90),
        }),
        [at('backup_image.width'), at('backup_image.height')],
      );
    });
  });

  describe('VAST and DAAST tags', () => {
    it('need a url or inline content', () => {
      assert.deepEqual(problems('video_vast_15s', vast({})), [
        {
          asset_id: 'vast_tag',
          field: at('vast_tag'),
          message: 'Asset vast_tag has neither a url answering VAST XML nor the VAST XML inline as content.',
        },
      ]);
      assert.deepEqual(fields('video_vast_15s', vast({ url: '  ', content: '' })), [at('vast_tag')]);
      assert.deepEqual(fields('video_vast_15s', vast({ url: 'https://ads.example/vast' })), []);
      assert.deepEqual(fields('audio_daast_15s', daast({})), [at('daast_tag')]);
    });

    it('need what their delivery_type says they carry', () => {
      assert.deepEqual(fields('video_vast_15s', vast({ delivery_type: 'url', content: '<VAST/>' })), [
        at('vast_tag.url'),
      ]);
      assert.deepEqual(fields('video_vast_15s', vast({ delivery_type: 'inline', url: 'https://ads.example/vast' })), [
        at('vast_tag.content'),
      ]);
    });

    it('need an http or https URL', () => {
      assert.deepEqual(fields('video_vast_15s', vast({ url: 'ftp://ads.example/vast.xml' })), [at('vast_tag.url')]);
      assert.deepEqual(fields('video_vast_15s', vast({ url: 'ads.example/vast.xml' })), [at('vast_tag.url')]);
      assert.deepEqual(fields('video_vast_15s', vast({ url: 'http://ads.example/vast.xml' })), []);
    });

    it('need inline XML whose root element is VAST, or DAAST', () => {
      const vastXml =
        '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- a comment -->\n<!DOCTYPE VAST>\n<VAST version="3.0"><Ad id="1"/></VAST>';
      assert.deepEqual(fields('video_vast_15s', vast({ content: vastXml })), []);
      assert.deepEqual(
        fields('video_vast_15s', vast({ content: '<v:VAST xmlns:v="x"></v:VAST>' })),
        [],
        'a namespace prefix',
      );
      assert.deepEqual(problems('video_vast_15s', vast({ content: '<DAAST version="1.0"></DAAST>' })), [
        {
          asset_id: 'vast_tag',
          field: at('vast_tag.content'),
          message: 'Asset vast_tag is not VAST XML: its root element is <DAAST>.',
        },
      ]);
      assert.deepEqual(
        problems('video_vast_15s', vast({ content: 'https://ads.example/vast.xml' }))[0]!.message,
        'Asset vast_tag is not VAST XML: it has no root element.',
      );
      assert.deepEqual(
        fields('video_vast_15s', vast({ content: '<vast version="4.0"/>' })),
        [at('vast_tag.content')],
        'XML names are case-sensitive',
      );
      assert.deepEqual(fields('video_vast_15s', vast({ content: '<VASTING/>' })), [at('vast_tag.content')]);
      assert.deepEqual(fields('video_vast_15s', vast({ content: '<!-- never closed <VAST/>' })), [
        at('vast_tag.content'),
      ]);
      assert.deepEqual(fields('audio_daast_30s', daast({ content: '<VAST version="4.1"/>' })), [
        at('daast_tag.content'),
      ]);
      assert.deepEqual(
        fields('audio_daast_30s', daast({ content: '<?xml version="1.0"?><DAAST version="1.0"/>' })),
        [],
      );
    });

    it('hold the duration they state to the format’s window', () => {
      assert.deepEqual(fields('video_vast_15s', vast({ url: 'https://ads.example/vast', duration_ms: 30_000 })), [
        at('vast_tag.duration_ms'),
      ]);
      assert.deepEqual(fields('audio_daast_30s', daast({ url: 'https://ads.example/daast', duration_ms: 29_600 })), []);
      assert.deepEqual(fields('audio_daast_30s', daast({ url: 'https://ads.example/daast', duration_ms: 15_000 })), [
        at('daast_tag.duration_ms'),
      ]);
    });
  });

  describe('repeatable groups', () => {
    it('count repetitions against min_count and max_count', () => {
      assert.deepEqual(fields(carousel, { ...card(0), ...card(1) }), []);
      assert.deepEqual(fields(carousel, { ...card(0), ...card(1), ...card(2) }), []);
      assert.deepEqual(problems(carousel, card(0)), [
        {
          asset_id: 'card',
          field: at('card'),
          message:
            'Format carousel needs at least 2 card repetitions (assets named like card_0_image, numbered from 0); the manifest has 1.',
        },
      ]);
      assert.deepEqual(fields(carousel, {}), [at('card')]);
      assert.deepEqual(problems(carousel, { ...card(0), ...card(1), ...card(2), ...card(3) }), [
        {
          asset_id: 'card',
          field: at('card'),
          message: 'Format carousel takes at most 3 card repetitions; the manifest has 4.',
        },
      ]);
    });

    it('ask an optional group for its minimum only when it is used', () => {
      const cards = { ...card(0), ...card(1) };
      assert.deepEqual(fields(carousel, { ...cards, extra_0_note: text('a') }), [at('extra')]);
      assert.deepEqual(fields(carousel, { ...cards, extra_0_note: text('a'), extra_1_note: text('b') }), []);
    });

    it('need each repetition’s required assets, a skipped index being a repetition without them', () => {
      const { card_1_title: _title, ...missing } = { ...card(0), ...card(1) };
      assert.deepEqual(problems(carousel, missing), [
        {
          asset_id: 'card_1_title',
          field: at('card_1_title'),
          message: 'Format carousel requires the text asset card_1_title.',
        },
      ]);
      assert.deepEqual(fields(carousel, { ...card(0), ...card(2) }), [at('card_1_image'), at('card_1_title')]);
      assert.deepEqual(
        fields(carousel, { ...card(0), ...card(1), card_1_badge: text('New') }),
        [],
        'an optional group asset',
      );
    });

    it('judge each repetition’s assets by the group’s requirements', () => {
      assert.deepEqual(
        fields(carousel, {
          ...card(0, 'A title far too long'),
          ...card(1),
          card_1_image: image('https://cdn.example/1.png', 300, 250),
        }),
        [at('card_0_title.content'), at('card_1_image.height')],
      );
      assert.deepEqual(
        fields(carousel, { ...card(0), ...card(1), card_1_title: image('https://cdn.example/1.png', 300, 300) }),
        [at('card_1_title.asset_type')],
      );
    });

    it('count only keys of the group’s own assets in canonical numbering, and stay bounded', () => {
      assert.deepEqual(
        fields(carousel, {
          ...card(0),
          ...card(1),
          card_01_image: image('https://cdn.example/x.png', 1, 1),
          card_2_caption: text('x'),
          cards_2_image: text('x'),
        }),
        [],
      );
      // Too many, and the third slot, which the far one was surely meant for, is empty.
      assert.deepEqual(
        fields(carousel, {
          ...card(0),
          ...card(1),
          card_999999999_image: image('https://cdn.example/x.png', 300, 300),
        }),
        [at('card'), at('card_2_image'), at('card_2_title')],
      );
    });
  });

  it('leaves the format and the manifest as they were', () => {
    const f = structuredClone(format('native_in_feed'));
    const assets = { ...native(), headline: text('x'.repeat(80)) };
    const copy = structuredClone(assets);
    problems(f, assets);
    assert.deepEqual(f, format('native_in_feed'));
    assert.deepEqual(assets, copy);
  });
});
