import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clockTime } from '../../../../src/agents/creative/build/ad-tags.ts';
import { buildFormat, type BuildTools } from '../../../../src/agents/creative/build/build-format.ts';
import { planBuild } from '../../../../src/agents/creative/build/plan.ts';
import { svgPng } from '../../../../src/agents/creative/render/index.ts';
import { standardFormats } from '../../../../src/agents/formats/index.ts';
import { layoutBanner, type Block } from '../../../../src/agents/creative/build/banner-layout.ts';
import { composeCopy, fitText, shorten } from '../../../../src/agents/creative/build/copy.ts';
import { readInstructions } from '../../../../src/agents/creative/build/instructions.ts';
import { brandShadeOf, contrast, paletteOf } from '../../../../src/agents/creative/build/palette.ts';
import type { Promoted } from '../../../../src/agents/creative/build/promoted.ts';
import { textWidth } from '../../../../src/agents/creative/render/fonts.ts';

describe('build_creative: reading the message', () => {
  it('finds the call to action, quoted or not', () => {
    assert.equal(readInstructions('Change the call to action to "Book a tasting".').cta, 'Book a tasting');
    assert.equal(readInstructions('CTA: “Shop now”').cta, 'Shop now');
    assert.equal(readInstructions("make the button say 'Get yours'").cta, 'Get yours');
    assert.equal(readInstructions('change the CTA to Order today, and keep the rest').cta, 'Order today');
    assert.equal(
      readInstructions('A warm winter campaign for "Summit Roast"').cta,
      undefined,
      'a quoted name is not a call to action',
    );
  });

  it('asks for shorter copy only when it says so', () => {
    assert.equal(readInstructions('Make the headline shorter').shorter, true);
    assert.equal(readInstructions('more concise please').shorter, true);
    assert.equal(readInstructions('A cosy winter feel').shorter, false);
    assert.equal(readInstructions(undefined).shorter, false);
  });

  it('reads the colour to emphasise: a brand role, a hex colour or a colour’s name', () => {
    assert.deepEqual(readInstructions('Emphasise the secondary colour').emphasis, { role: 'secondary' });
    assert.deepEqual(readInstructions('emphasize #0A7D3B').emphasis, { hex: '#0A7D3B' });
    assert.deepEqual(readInstructions('use more blue').emphasis, { name: 'blue' });
    assert.equal(readInstructions('Shorter, please').emphasis, undefined);
    assert.equal(
      readInstructions('Change the CTA to "Shop red shoes"').emphasis,
      undefined,
      'colour words in the new label are copy',
    );
  });
});

describe('build_creative: copy', () => {
  const promoted: Promoted = {
    brand: { name: 'Trailhead Coffee', colors: {}, logos: [] },
    offerings: [
      {
        name: 'Summit Roast Winter Blend',
        description: 'A dark roast for cold mornings. Roasted weekly.',
        checkout_url: 'https://trailhead.example/buy',
      },
    ],
  };

  it('composes the copy from the first offering, the source’s own texts first', () => {
    assert.deepEqual(composeCopy({}, promoted, { shorter: false }), {
      headline: 'Summit Roast Winter Blend',
      body: 'A dark roast for cold mornings. Roasted weekly.',
      sponsor: 'Trailhead Coffee',
      cta: 'Shop now',
    });
    assert.equal(composeCopy({ headline: 'Own words' }, promoted, { shorter: false }).headline, 'Own words');
    assert.equal(composeCopy({}, promoted, { shorter: false, cta: 'Book now' }).cta, 'Book now');
    assert.deepEqual(
      composeCopy({}, undefined, { shorter: false }),
      {},
      'nothing to say without a source or offerings',
    );
  });

  it('shortens: the part before a separator, else fewer words, never a lone word', () => {
    assert.equal(shorten('Winter Sale: up to half off'), 'Winter Sale');
    assert.equal(shorten('Summit Roast Winter Blend'), 'Summit Roast Winter');
    assert.equal(shorten('Coffee'), 'Coffee');
    const short = composeCopy({}, promoted, { shorter: true });
    assert.equal(short.body, 'A dark roast for cold mornings.');
    assert.equal(
      composeCopy({ body: 'Roasted weekly in small batches' }, undefined, { shorter: true }).body,
      'Roasted weekly',
    );
    assert.equal(shorten('A dark roast for cold mornings'), 'A dark roast');
  });

  it('fits a text to a limit at a word, with an ellipsis, counting characters as people do', () => {
    assert.equal(fitText('Summit Roast Winter Blend', 30), 'Summit Roast Winter Blend');
    assert.equal(fitText('Summit Roast Winter Blend', 15), 'Summit Roast…');
    assert.equal(fitText('Supercalifragilistic', 8), 'Superca…');
    assert.equal([...fitText('Café crème 😀 '.repeat(5).trim(), 20)].length <= 20, true);
  });
});

describe('build_creative: colours', () => {
  it('fills with the primary (or the emphasised colour) and picks a button that stands out', () => {
    const palette = paletteOf({ primary: '#0b3d2e', secondary: '#f2a900' });
    assert.deepEqual(
      [palette.background, palette.text, palette.accent, palette.branded],
      ['#0b3d2e', '#ffffff', '#f2a900', true],
    );
    const emphasised = paletteOf({ primary: '#0b3d2e', secondary: '#f2a900' }, '#f2a900');
    assert.equal(emphasised.background, '#f2a900');
    assert.ok(contrast(emphasised.accent, emphasised.background) >= 2);
    assert.equal(paletteOf({}).branded, false);
  });

  it('names a colour in the brand’s own shade when it has one', () => {
    assert.equal(brandShadeOf('blue', { primary: '#1a4fa0' }), '#1a4fa0');
    assert.equal(brandShadeOf('blue', { primary: '#0b3d2e' }), '#2563eb');
  });
});

describe('build_creative: banner layout', () => {
  const sizes = [
    [300, 250],
    [728, 90],
    [320, 50],
    [160, 600],
    [300, 600],
    [970, 250],
    [320, 480],
    [1200, 628],
    [1920, 1080],
    [1080, 1920],
  ] as const;
  const inside = (block: Block | undefined, w: number, h: number, what: string) => {
    if (!block) return;
    const left = block.align === 'middle' ? block.x - block.width / 2 : block.x;
    assert.ok(left >= 0 && left + block.width <= w + 0.5, `${what} fits across ${w}x${h}`);
    assert.ok(
      block.y >= 0 && block.y + block.lines.length * block.lineHeight <= h + 0.5,
      `${what} fits down ${w}x${h}`,
    );
    for (const line of block.lines)
      assert.ok(
        textWidth(line, block.weight, block.size) <= block.width + 0.5,
        `${what} line "${line}" within its box`,
      );
  };

  for (const [w, h] of sizes) {
    it(`keeps everything inside ${w}x${h} and the headline whole`, () => {
      const layout = layoutBanner(
        {
          headline: 'Summit Roast Winter Blend',
          body: 'A dark roast for cold mornings.',
          cta: 'Learn more',
          brandName: 'Trailhead Coffee',
          logo: { width: 200, height: 80 },
        },
        w,
        h,
      );
      assert.ok(layout.headline, 'a headline');
      assert.equal(layout.headline.lines.join(' '), 'Summit Roast Winter Blend');
      inside(layout.headline, w, h, 'headline');
      inside(layout.body, w, h, 'body');
      for (const box of [layout.logo, layout.cta?.box])
        if (box)
          assert.ok(
            box.x >= 0 && box.y >= 0 && box.x + box.width <= w && box.y + box.height <= h,
            `box inside ${w}x${h}`,
          );
      if (layout.cta && layout.headline) {
        const headlineBottom = layout.headline.y + layout.headline.lines.length * layout.headline.lineHeight;
        const overlaps =
          layout.cta.box.y < headlineBottom &&
          layout.cta.box.y + layout.cta.box.height > layout.headline.y &&
          (w / h >= 2.5 ? layout.cta.box.x < layout.headline.x + layout.headline.width : true);
        assert.ok(!overlaps, `button clear of the headline at ${w}x${h}`);
      }
    });
  }

  it('shows a picture whole where there are no words', () => {
    const layout = layoutBanner({ picture: { width: 300, height: 250 } }, 728, 90);
    assert.deepEqual(layout.picture, { box: { x: 0, y: 0, width: 728, height: 90 }, fit: 'contain' });
  });

  it('writes durations as VAST does', () => {
    assert.equal(clockTime(30_000), '00:00:30.000');
    assert.equal(clockTime(3_723_004), '01:02:03.004');
  });
});

describe('build_creative: URLs in what it writes', () => {
  const formats = standardFormats('https://creative.test/mcp');
  const format = (id: string) => formats.find((f) => f.format_id.id === id)!;
  const tools: BuildTools = {
    image: async () => undefined,
    draw: svgPng,
    store: async () => 'https://creative.test/assets/x.png',
  };
  const manifest = (assets: Record<string, unknown>) => ({
    format_id: format('display_300x250').format_id,
    assets: {
      promoted_offerings: {
        brand_manifest: { name: 'Trailhead', url: 'javascript:alert(1)' },
        inline_offerings: [{ name: 'Summit Roast' }],
      },
      ...assets,
    },
  });

  it('puts no script URL into an HTML5 banner, and refuses the clickthrough', async () => {
    const built = await buildFormat(
      format('html5_300x250'),
      planBuild({ manifest: manifest({}), sourceFormat: undefined }),
      tools,
    );
    assert.ok(!String(built.manifest.assets['html_creative']?.content).includes('javascript:'));
    assert.deepEqual(
      built.problems.map((p) => p.asset_id),
      ['click_url'],
    );
  });

  it('wraps no VAST around a spot a player cannot fetch', async () => {
    const spot = { asset_type: 'video', url: 'javascript:alert(1)', width: 1280, height: 720, duration_ms: 15_000 };
    const built = await buildFormat(
      format('video_vast_15s'),
      planBuild({ manifest: manifest({ spot }), sourceFormat: undefined }),
      tools,
    );
    assert.equal(built.manifest.assets['vast_tag'], undefined);
    assert.deepEqual(
      built.problems.map((p) => p.asset_id),
      ['vast_tag'],
    );
  });
});
