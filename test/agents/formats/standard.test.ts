import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { standardFormats, type Asset, type Format } from '../../../src/agents/formats/index.ts';
import { schemasDir, validateSchema } from '../../../src/protocol/schemas.ts';

const agentUrl = 'https://ap.example/creative/mcp';
const universalMacros = (
  JSON.parse(readFileSync(join(schemasDir, '3.0.6/enums/universal-macro.json'), 'utf8')) as { enum: string[] }
).enum;
const byId = (id: string) => standardFormats(agentUrl).find((f) => f.format_id.id === id)!;
const assetsOf = (format: Format) => format.assets as Asset[];

describe('standard formats', () => {
  it('are the fixed set the catalogs name, each with the creative agent’s URL in its format_id', () => {
    const formats = standardFormats(agentUrl);
    assert.deepEqual(
      formats.map((f) => f.format_id),
      [
        'display_300x250',
        'display_728x90',
        'display_320x50',
        'display_160x600',
        'display_300x600',
        'display_970x250',
        'display_320x480',
        'display_responsive',
        'html5_300x250',
        'html5_728x90',
        'html5_300x600',
        'html5_320x50',
        'native_in_feed',
        'video_15s',
        'video_30s',
        'video_6s_bumper',
        'video_vast_15s',
        'video_vast_30s',
        'ctv_video_15s',
        'ctv_video_30s',
        'audio_15s',
        'audio_30s',
        'audio_daast_15s',
        'audio_daast_30s',
        'dooh_1920x1080',
        'dooh_1080x1920',
      ].map((id) => ({ agent_url: agentUrl, id })),
    );
  });

  it('each validate against core/format.json', () => {
    for (const format of standardFormats(agentUrl)) {
      assert.deepEqual(validateSchema('/schemas/3.0.6/core/format.json', format).errors, [], format.format_id.id);
    }
  });

  it('are the same for any creative agent but for its URL', () => {
    const elsewhere = standardFormats('https://other.example/mcp').map((f) => ({
      ...f,
      format_id: { ...f.format_id, agent_url: agentUrl },
    }));
    assert.deepEqual(elsewhere, standardFormats(agentUrl));
  });

  it('carry the spec’s type and assets_required beside the schema’s assets', () => {
    for (const format of standardFormats(agentUrl)) {
      assert.ok(['display', 'video', 'audio', 'dooh'].includes(format.type!), format.format_id.id);
      assert.deepEqual(
        format.assets_required,
        (format.assets as Asset[]).filter((a) => a.required),
        format.format_id.id,
      );
      assert.ok(format.assets_required!.length > 0, format.format_id.id);
    }
  });

  it('ask for display, HTML5 backup and screen images of exactly the size in their id, rendered at that size', () => {
    const sized = standardFormats(agentUrl).filter((f) => /^(display|html5|dooh)_\d+x\d+$/.test(f.format_id.id));
    assert.equal(sized.length, 13);
    for (const format of sized) {
      const [width, height] = format.format_id.id.split('_')[1]!.split('x').map(Number);
      assert.deepEqual(
        format.renders!.map((r) => [r.dimensions?.width, r.dimensions?.height]),
        [[width, height]],
      );
      const image = (format.assets as Asset[]).find((a) => a.asset_type === 'image' && a.required)!;
      assert.deepEqual(
        [
          image.requirements!['min_width'],
          image.requirements!['max_width'],
          image.requirements!['min_height'],
          image.requirements!['max_height'],
        ],
        [width, width, height, height],
      );
    }
  });

  it('ask for video and audio, hosted or by VAST or DAAST tag, of the duration in their id', () => {
    const timed = standardFormats(agentUrl).filter((f) => f.type === 'video' || f.type === 'audio');
    assert.equal(timed.length, 11);
    for (const format of timed) {
      const seconds = Number(/_(\d+)s(?:_|$)/.exec(format.format_id.id)![1]);
      const media = assetsOf(format).find(
        (a) => a.required && ['video', 'audio', 'vast', 'daast'].includes(a.asset_type),
      )!;
      const { min_duration_ms: min, max_duration_ms: max } = media.requirements as {
        min_duration_ms: number;
        max_duration_ms: number;
      };
      assert.ok(min <= seconds * 1000 && seconds * 1000 <= max && max - min <= 1000, format.format_id.id);
    }
  });

  it('are fresh objects at each call, so a caller’s change does not leak into the next answer', () => {
    const first = standardFormats(agentUrl);
    first[0]!.name = 'changed';
    (first[0]!.assets![0] as Asset).required = false;
    const second = standardFormats(agentUrl);
    assert.equal(second[0]!.name, 'Medium Rectangle 300x250');
    assert.equal((second[0]!.assets![0] as Asset).required, true);
  });
  it('make HTML5 banners of an HTML document with its size limit, a backup image and a clickthrough', () => {
    for (const id of ['html5_300x250', 'html5_728x90', 'html5_300x600', 'html5_320x50']) {
      const required = byId(id).assets_required!.map((a) => [a.asset_id, a.asset_type]);
      assert.deepEqual(
        required,
        [
          ['html_creative', 'html'],
          ['backup_image', 'image'],
          ['click_url', 'url'],
        ],
        id,
      );
      assert.equal(assetsOf(byId(id))[0]!.requirements!['max_file_size_kb'], 200, id);
    }
  });

  it('serve VAST video and DAAST audio by tag, and host MP3 audio', () => {
    assert.deepEqual(
      byId('video_vast_15s').assets_required!.map((a) => [a.asset_id, a.asset_type]),
      [['vast_tag', 'vast']],
    );
    assert.deepEqual(
      byId('video_vast_30s').assets_required!.map((a) => [a.asset_id, a.asset_type]),
      [['vast_tag', 'vast']],
    );
    for (const id of ['audio_daast_15s', 'audio_daast_30s']) {
      assert.deepEqual(
        byId(id).assets_required!.map((a) => [a.asset_id, a.asset_type, a.requirements!['daast_version']]),
        [['daast_tag', 'daast', '1.0']],
        id,
      );
    }
    for (const id of ['audio_15s', 'audio_30s'])
      assert.ok((assetsOf(byId(id))[0]!.requirements!['formats'] as string[]).includes('mp3'), id);
    assert.deepEqual(
      byId('video_6s_bumper').assets_required!.map((a) => a.asset_type),
      ['video'],
    );
  });

  it('make the responsive display format adapt to its slot from images, texts and a clickthrough', () => {
    const format = byId('display_responsive');
    assert.deepEqual(
      format.renders!.map((r) => r.dimensions?.responsive),
      [{ width: true, height: true }],
    );
    assert.deepEqual(
      format.assets_required!.map((a) => a.asset_id),
      ['landscape_image', 'headline', 'description', 'business_name', 'click_url'],
    );
  });

  it('name the universal macros each fills, by what its placement knows', () => {
    for (const format of standardFormats(agentUrl)) {
      const macros = format.supported_macros!;
      const id = format.format_id.id;
      assert.ok(macros.length > 0, id);
      assert.equal(new Set(macros).size, macros.length, `${id} names a macro twice`);
      assert.deepEqual(
        macros.filter((m) => !universalMacros.includes(m)),
        [],
        id,
      );
      assert.ok(
        ['MEDIA_BUY_ID', 'CREATIVE_ID', 'CACHEBUSTER'].every((m) => macros.includes(m)),
        id,
      );
      // A click macro only where there is a click to track: a clickthrough, or a tag carrying its own.
      assert.equal(
        macros.includes('CLICK_URL'),
        assetsOf(format).some((a) => a.asset_id === 'click_url' || a.asset_type === 'vast' || a.asset_type === 'daast'),
        id,
      );
    }
    const has = (id: string, ...macros: string[]) =>
      assert.deepEqual(
        macros.filter((m) => !byId(id).supported_macros!.includes(m)),
        [],
        id,
      );
    const lacks = (id: string, ...macros: string[]) =>
      assert.deepEqual(
        macros.filter((m) => byId(id).supported_macros!.includes(m)),
        [],
        id,
      );
    has('display_300x250', 'DEVICE_TYPE', 'AD_WIDTH', 'AD_HEIGHT', 'DOMAIN', 'GDPR_CONSENT');
    has('html5_728x90', 'AD_WIDTH', 'AD_HEIGHT');
    lacks('display_300x250', 'VIDEO_DURATION', 'AUDIO_DURATION');
    has('video_vast_30s', 'VIDEO_DURATION', 'PLAYER_WIDTH', 'PLAYER_HEIGHT', 'POD_POSITION', 'POD_SIZE');
    has('ctv_video_30s', 'DEVICE_ID', 'APP_BUNDLE', 'POD_POSITION');
    lacks('ctv_video_30s', 'PAGE_URL');
    has('audio_daast_30s', 'AUDIO_DURATION', 'STATION_ID', 'POD_POSITION');
    lacks('audio_30s', 'AD_WIDTH', 'PLAYER_WIDTH');
    has('dooh_1080x1920', 'LAT', 'LONG', 'AD_WIDTH');
    lacks('dooh_1080x1920', 'GDPR_CONSENT', 'PAGE_URL');
  });
});
