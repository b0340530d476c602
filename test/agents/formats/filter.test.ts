import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filterFormats, standardFormats, type Format, type FormatFilters } from '../../../src/agents/formats/index.ts';

const agentUrl = 'https://ap.example/creative/mcp';
const standard = standardFormats(agentUrl);
const idsOf = (request: FormatFilters, formats: readonly Format[] = standard) =>
  filterFormats(formats, request).map((f) => f.format_id.id);

/** A format with the accessibility, disclosure and input/output fields no standard format has. */
const resizer: Format = {
  format_id: { agent_url: 'https://dco.example/mcp', id: 'resize_to_banner' },
  name: 'Resize to banner',
  accessibility: { wcag_level: 'AA' },
  disclosure_capabilities: [
    { position: 'footer', persistence: ['continuous'] },
    { position: 'overlay', persistence: ['initial', 'flexible'] },
  ],
  supported_disclosure_positions: ['prominent'],
  input_format_ids: [{ agent_url: agentUrl, id: 'display_300x600' }],
  output_format_ids: [
    { agent_url: agentUrl, id: 'display_300x250' },
    { agent_url: agentUrl, id: 'display_728x90' },
  ],
  assets: [
    {
      item_type: 'repeatable_group',
      asset_group_id: 'card',
      required: true,
      min_count: 2,
      max_count: 5,
      assets: [{ asset_id: 'card_html', asset_type: 'html', required: true }],
    },
  ],
};
const flat: Format = {
  format_id: { agent_url: 'https://dco.example/mcp', id: 'flat_list' },
  name: 'Flat',
  supported_disclosure_positions: ['prominent', 'footer'],
  accessibility: { wcag_level: 'A' },
};
const mixed = [...standard, resizer, flat];

describe('filterFormats', () => {
  it('answers every format, in order, when no filter is given', () => {
    assert.deepEqual(filterFormats(standard, {}), standard);
  });

  it('format_ids: the formats named, by id and agent URL in any spelling, whatever their order in the request', () => {
    assert.deepEqual(
      idsOf({
        format_ids: [
          { agent_url: agentUrl, id: 'video_30s' },
          { agent_url: 'HTTPS://AP.EXAMPLE:443/creative/mcp', id: 'display_728x90' },
        ],
      }),
      ['display_728x90', 'video_30s'],
    );
    assert.deepEqual(
      idsOf({
        format_ids: [
          { agent_url: 'https://ap.example/creative', id: 'html5_300x250' },
          { agent_url: 'https://ap.example/creative/a2a/', id: 'audio_30s' },
        ],
      }),
      ['html5_300x250', 'audio_30s'],
    );
    assert.deepEqual(idsOf({ format_ids: [{ agent_url: 'https://elsewhere.example/mcp', id: 'video_30s' }] }), []);
    assert.deepEqual(idsOf({ format_ids: [{ agent_url: 'https://ap.example/sales/mcp', id: 'video_30s' }] }), []);
    assert.deepEqual(idsOf({ format_ids: [{ agent_url: agentUrl, id: 'no_such_format' }] }), []);
  });

  it('type: the formats of that technical category', () => {
    assert.deepEqual(idsOf({ type: 'video' }), [
      'video_15s',
      'video_30s',
      'video_6s_bumper',
      'video_vast_15s',
      'video_vast_30s',
      'ctv_video_15s',
      'ctv_video_30s',
    ]);
    assert.deepEqual(idsOf({ type: 'audio' }), ['audio_15s', 'audio_30s', 'audio_daast_15s', 'audio_daast_30s']);
    assert.deepEqual(idsOf({ type: 'dooh' }), ['dooh_1920x1080', 'dooh_1080x1920']);
    assert.deepEqual(idsOf({ type: 'display' }), [
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
    ]);
  });

  it('asset_types: formats having every type asked for, inside repeatable groups too', () => {
    assert.deepEqual(idsOf({ asset_types: ['image', 'text'] }), ['display_responsive', 'native_in_feed']);
    assert.deepEqual(idsOf({ asset_types: ['audio'] }), ['audio_15s', 'audio_30s']);
    assert.deepEqual(idsOf({ asset_types: ['video', 'url'] }), [
      'video_15s',
      'video_30s',
      'video_6s_bumper',
      'ctv_video_15s',
      'ctv_video_30s',
    ]);
    assert.deepEqual(idsOf({ asset_types: ['vast'] }), ['video_vast_15s', 'video_vast_30s']);
    assert.deepEqual(idsOf({ asset_types: ['daast'] }), ['audio_daast_15s', 'audio_daast_30s']);
    assert.deepEqual(idsOf({ asset_types: ['html', 'image'] }), [
      'html5_300x250',
      'html5_728x90',
      'html5_300x600',
      'html5_320x50',
    ]);
    assert.deepEqual(idsOf({ asset_types: ['html'] }, [resizer, flat]), ['resize_to_banner']);
    assert.deepEqual(idsOf({ asset_types: ['javascript'] }), []);
  });

  it('max_width and max_height: formats with a fixed-size render within them, inclusive', () => {
    assert.deepEqual(idsOf({ max_width: 300 }), [
      'display_300x250',
      'display_160x600',
      'display_300x600',
      'html5_300x250',
      'html5_300x600',
    ]);
    assert.deepEqual(idsOf({ max_height: 90 }), ['display_728x90', 'display_320x50', 'html5_728x90', 'html5_320x50']);
    assert.deepEqual(idsOf({ max_width: 300, max_height: 250 }), ['display_300x250', 'html5_300x250']);
    assert.deepEqual(idsOf({ max_width: 159 }), []);
  });

  it('min_width and min_height: formats with a fixed-size render at least that large, inclusive', () => {
    assert.deepEqual(idsOf({ min_width: 1920 }), ['ctv_video_15s', 'ctv_video_30s', 'dooh_1920x1080']);
    assert.deepEqual(idsOf({ min_height: 600 }), [
      'display_160x600',
      'display_300x600',
      'html5_300x600',
      'ctv_video_15s',
      'ctv_video_30s',
      'dooh_1920x1080',
      'dooh_1080x1920',
    ]);
    assert.deepEqual(idsOf({ min_width: 301, max_width: 728, max_height: 250 }), [
      'display_728x90',
      'display_320x50',
      'html5_728x90',
      'html5_320x50',
    ]);
    assert.deepEqual(idsOf({ min_width: 900, max_width: 1000 }), ['display_970x250']);
  });

  it('is_responsive: formats that adapt to their container, or those of fixed size', () => {
    assert.deepEqual(idsOf({ is_responsive: true }), [
      'display_responsive',
      'native_in_feed',
      'video_15s',
      'video_30s',
      'video_6s_bumper',
      'video_vast_15s',
      'video_vast_30s',
    ]);
    assert.deepEqual(idsOf({ is_responsive: false, type: 'video' }), ['ctv_video_15s', 'ctv_video_30s']);
    assert.ok(!idsOf({ is_responsive: false }).includes('native_in_feed'));
  });

  it('name_search: a case-insensitive part of the name', () => {
    assert.deepEqual(idsOf({ name_search: 'SKYSCRAPER' }), ['display_160x600']);
    assert.deepEqual(idsOf({ name_search: 'video 30' }), ['video_30s', 'video_vast_30s', 'ctv_video_30s']);
    assert.deepEqual(idsOf({ name_search: 'daast' }), ['audio_daast_15s', 'audio_daast_30s']);
    assert.deepEqual(idsOf({ name_search: 'hologram' }), []);
  });

  it('wcag_level: formats meeting at least that level; formats that declare none never do', () => {
    assert.deepEqual(idsOf({ wcag_level: 'A' }, mixed), ['resize_to_banner', 'flat_list']);
    assert.deepEqual(idsOf({ wcag_level: 'AA' }, mixed), ['resize_to_banner']);
    assert.deepEqual(idsOf({ wcag_level: 'AAA' }, mixed), []);
  });

  it('disclosure_positions: all of them, from disclosure_capabilities when a format has them, else the flat list', () => {
    assert.deepEqual(idsOf({ disclosure_positions: ['footer'] }, mixed), ['resize_to_banner', 'flat_list']);
    assert.deepEqual(idsOf({ disclosure_positions: ['footer', 'overlay'] }, mixed), ['resize_to_banner']);
    assert.deepEqual(idsOf({ disclosure_positions: ['prominent'] }, mixed), ['flat_list']);
  });

  it('disclosure_persistence: each mode supported at some position', () => {
    assert.deepEqual(idsOf({ disclosure_persistence: ['continuous', 'initial'] }, mixed), ['resize_to_banner']);
    assert.deepEqual(idsOf({ disclosure_persistence: ['flexible'] }, mixed), ['resize_to_banner']);
    assert.deepEqual(idsOf({ disclosure_persistence: ['continuous'] }, [flat]), []);
  });

  it('input_format_ids and output_format_ids: formats that take or make any of them', () => {
    assert.deepEqual(
      idsOf(
        {
          output_format_ids: [
            { agent_url: agentUrl, id: 'display_728x90' },
            { agent_url: agentUrl, id: 'video_15s' },
          ],
        },
        mixed,
      ),
      ['resize_to_banner'],
    );
    assert.deepEqual(idsOf({ input_format_ids: [{ agent_url: agentUrl, id: 'display_300x600' }] }, mixed), [
      'resize_to_banner',
    ]);
    assert.deepEqual(idsOf({ input_format_ids: [{ agent_url: agentUrl, id: 'display_300x250' }] }, mixed), []);
  });

  it('combines filters with AND', () => {
    assert.deepEqual(
      idsOf({ type: 'display', is_responsive: false, asset_types: ['image'], max_width: 320, name_search: 'banner' }),
      ['display_320x50', 'html5_320x50'],
    );
    assert.deepEqual(
      idsOf({ type: 'video', min_width: 1920, format_ids: [{ agent_url: agentUrl, id: 'video_30s' }] }),
      [],
    );
    assert.deepEqual(idsOf({ type: 'dooh', asset_types: ['image'], min_width: 1920, is_responsive: false }), [
      'dooh_1920x1080',
    ]);
  });
});
